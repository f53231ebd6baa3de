import type { ProviderThreadStatus } from "../../entities/provider-thread.ts";
import type { RuntimeRequest } from "../../entities/runtime-request.ts";
import type { ProviderThreadId, RunId } from "../../ids.ts";
import { finishNode, putProviderThread, putRequest } from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";

/** Pending requests that can no longer be answered: cancelled, with their nodes and items. */
export function cancelPendingRequests(
  s: ThreadState,
  matches: (request: RuntimeRequest) => boolean,
  at: string,
): void {
  // The pending set is small (actionable requests only), so scanning it is cheap.
  for (const requestId of [...s.pendingRequestIds]) {
    const request = s.requests.get(requestId);
    if (!request || !matches(request)) continue;
    putRequest(s, { ...request, status: "cancelled", resolvedAt: at });
    finishNode(s, request.nodeId, "cancelled", "cancelled", at);
    forgetPending(s, request);
  }
}

export function forgetPending(s: ThreadState, request: RuntimeRequest): void {
  s.pendingRequestIds.delete(request.id);
  if (!request.runId) return;
  const left = (s.pendingRequestsByRun.get(request.runId) ?? 1) - 1;
  if (left > 0) s.pendingRequestsByRun.set(request.runId, left);
  else s.pendingRequestsByRun.delete(request.runId);
}

export function pendingCount(s: ThreadState, runId: RunId): number {
  return s.pendingRequestsByRun.get(runId) ?? 0;
}

/**
 * A turn on this provider thread ended: its coverage now includes the run, and once no turn is
 * running the thread goes idle (or not_loaded when the runtime is gone).
 */
export function releaseProviderThread(
  s: ThreadState,
  providerThreadId: ProviderThreadId,
  runOrdinal: number,
  statusWhenIdle: ProviderThreadStatus,
  at: string,
): void {
  const providerThread = s.providerThreads.get(providerThreadId);
  if (!providerThread) return;
  const running = Math.max(0, (s.runningTurnsByProviderThread.get(providerThreadId) ?? 1) - 1);
  if (running > 0) s.runningTurnsByProviderThread.set(providerThreadId, running);
  else s.runningTurnsByProviderThread.delete(providerThreadId);
  const status =
    running === 0 && providerThread.status === "active" ? statusWhenIdle : providerThread.status;
  putProviderThread(s, {
    ...providerThread,
    status,
    firstRunOrdinal: providerThread.firstRunOrdinal ?? runOrdinal,
    lastRunOrdinal: Math.max(providerThread.lastRunOrdinal ?? runOrdinal, runOrdinal),
    updatedAt: at,
  });
}
