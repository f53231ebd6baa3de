import type { ProjectionQuery } from "@skein/db";
import {
  type ContextHandoff,
  type ContextTransfer,
  type ContextTransferId,
  NotFoundError,
} from "@skein/domain";
import { compareText, getData, listRows } from "./rows.ts";
import type { TransferData } from "@skein/contract";

/** Defined by the contract (the router's output types); re-exported for the read side. */
export type { TransferData };

function currentHandoff(
  transfer: ContextTransfer,
  handoffs: readonly ContextHandoff[],
): ContextHandoff | null {
  const resolution = transfer.resolution;
  if (resolution !== null && "contextHandoffId" in resolution) {
    const named = handoffs.find((handoff) => handoff.id === resolution.contextHandoffId);
    if (named !== undefined) return named;
  }
  const live = handoffs.filter((handoff) => handoff.status !== "superseded");
  return live.at(-1) ?? null;
}

export async function readTransfer(
  query: ProjectionQuery,
  transferId: ContextTransferId,
): Promise<TransferData> {
  const transfer = await getData<ContextTransfer>(query, "transfers", transferId);
  if (transfer === undefined) throw new NotFoundError("transfer", transferId);
  const handoffs = (await listRows<ContextHandoff>(query, "handoffs", transfer.targetThreadId))
    .map((row) => row.data)
    .filter((handoff) => handoff.transferId === transferId)
    .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
  return { transfer, handoff: currentHandoff(transfer, handoffs), handoffs };
}
