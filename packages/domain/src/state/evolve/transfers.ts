import type { ContextTransferResolution } from "../../entities/context-transfer.ts";
import type { EventData } from "../../events.ts";
import type { ContextHandoffId } from "../../ids.ts";
import { addItem, putHandoff, putRun, putTransfer, touchShell } from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";

export function onContextTransferCreated(
  s: ThreadState,
  d: EventData<"ContextTransferCreated">,
): void {
  putTransfer(s, d.transfer);
  touchShell(s, d.at);
}

export function onContextTransferResolved(
  s: ThreadState,
  d: EventData<"ContextTransferResolved">,
): void {
  const transfer = s.transfers.get(d.transferId);
  if (transfer) putTransfer(s, { ...transfer, status: d.status, resolution: d.resolution });
}

export function onContextTransferFellBack(
  s: ThreadState,
  d: EventData<"ContextTransferFellBack">,
): void {
  const transfer = s.transfers.get(d.transferId);
  if (!transfer) return;
  putTransfer(s, {
    ...transfer,
    status: "resolved_portable",
    resolution: d.resolution,
    fallback: { from: "native_fork", reason: d.reason, at: d.at },
  });
}

export function onContextTransferFailed(
  s: ThreadState,
  d: EventData<"ContextTransferFailed">,
): void {
  const transfer = s.transfers.get(d.transferId);
  if (transfer) putTransfer(s, { ...transfer, status: "failed", error: d.error });
}

export function onContextTransferConsumed(
  s: ThreadState,
  d: EventData<"ContextTransferConsumed">,
): void {
  const transfer = s.transfers.get(d.transferId);
  if (!transfer) return;
  putTransfer(s, { ...transfer, status: "consumed", consumedAt: d.at, consumedByRunId: d.runId });
  const handoffId = handoffIdOf(transfer.resolution);
  const run = s.runs.get(d.runId);
  if (run && handoffId && !run.contextHandoffId) putRun(s, { ...run, contextHandoffId: handoffId });
  if (d.item) addItem(s, d.item, d.item.handoffId);
  touchShell(s, d.at);
}

export function onContextTransferSuperseded(
  s: ThreadState,
  d: EventData<"ContextTransferSuperseded">,
): void {
  const transfer = s.transfers.get(d.transferId);
  if (transfer) putTransfer(s, { ...transfer, status: "superseded" });
}

export function onHandoffRecorded(s: ThreadState, d: EventData<"HandoffRecorded">): void {
  putHandoff(s, d.handoff);
}

/** The replacement takes over every reference to the superseded handoff. */
export function onHandoffReplaced(s: ThreadState, d: EventData<"HandoffReplaced">): void {
  const previous = s.handoffs.get(d.previousHandoffId);
  if (!previous) return;
  putHandoff(s, { ...previous, status: "superseded", updatedAt: d.at });
  putHandoff(s, d.handoff);
  const transfer = s.transfers.get(d.handoff.transferId);
  const resolution = transfer?.resolution;
  if (transfer && resolution && handoffIdOf(resolution) === previous.id) {
    putTransfer(s, {
      ...transfer,
      resolution: { ...resolution, contextHandoffId: d.handoff.id } as ContextTransferResolution,
    });
  }
  const run = d.handoff.targetRunId ? s.runs.get(d.handoff.targetRunId) : undefined;
  if (run?.contextHandoffId === previous.id) putRun(s, { ...run, contextHandoffId: d.handoff.id });
}

export function onHandoffBound(s: ThreadState, d: EventData<"HandoffBound">): void {
  const handoff = s.handoffs.get(d.handoffId);
  if (!handoff) return;
  putHandoff(s, {
    ...handoff,
    targetRunId: d.runId,
    toProviderThreadId: d.providerThreadId,
    updatedAt: d.at,
  });
}

export function onHandoffSuperseded(s: ThreadState, d: EventData<"HandoffSuperseded">): void {
  const handoff = s.handoffs.get(d.handoffId);
  if (handoff) putHandoff(s, { ...handoff, status: "superseded", updatedAt: d.at });
}

export function handoffIdOf(resolution: ContextTransferResolution | null): ContextHandoffId | null {
  if (!resolution || resolution.strategy === "native_fork") return null;
  return resolution.contextHandoffId;
}
