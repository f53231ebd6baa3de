import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { ProjectionRow } from "./projection-write.ts";

export type PendingRequestView = RuntimeRequest & { answerable: boolean };

/** P5: actionable requests, oldest first; `answerable` only while the runtime is live (E15). */
export function assemblePendingRequests(
  rows: readonly ProjectionRow<RuntimeRequest>[],
): PendingRequestView[] {
  return rows
    .map((row) => row.data)
    .filter((r) => r.status === "pending")
    .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id))
    .map((r) => ({ ...r, answerable: r.responseCapability.type === "live" }));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
