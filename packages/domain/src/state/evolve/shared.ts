import type { ProviderThreadStatus } from "../../entities/provider-thread.ts";
import type { RuntimeRequest } from "../../entities/runtime-request.ts";
import type { ProviderThreadId, RunId } from "../../ids.ts";
import { finishNode, putProviderThread, putRequest } from "../mutations.ts";
import { heldValues } from "../partial-map.ts";
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

/**
 * E15: pending requests whose runtime stopped without the person ending it (restart, provider
 * crash, shutdown) stay listed as pending but `not_resumable`, with the reason; they no longer
 * count as waiting. `expireStrandedRequests` ends them when the thread moves on.
 */
export function strandPendingRequests(
  s: ThreadState,
  matches: (request: RuntimeRequest) => boolean,
  reason: string,
  at: string,
): void {
  for (const requestId of [...s.pendingRequestIds]) {
    const request = s.requests.get(requestId);
    if (!request || !matches(request)) continue;
    putRequest(s, { ...request, responseCapability: { type: "not_resumable", reason } });
    finishNode(s, request.nodeId, "interrupted", "interrupted", at);
    forgetPending(s, request);
  }
}

/**
 * Requests a restart left unanswerable (pending, `not_resumable`, no longer counted as waiting)
 * expire once the thread moves on: a new run (or attempt) starts from a stable point instead.
 */
export function expireStrandedRequests(s: ThreadState, at: string): void {
  // Held values: a compact state keeps every pending request (compact-state.ts).
  for (const request of heldValues(s.requests)) {
    if (request.status !== "pending" || s.pendingRequestIds.has(request.id)) continue;
    putRequest(s, { ...request, status: "expired", resolvedAt: at });
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
