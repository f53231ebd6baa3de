import type { Run } from "../../entities/run.ts";
import type { EventData } from "../../events.ts";
import {
  addItem,
  finishNode,
  openNodeIds,
  putAttempt,
  putMessage,
  putNode,
  putProviderTurn,
  putRun,
  touchShell,
} from "../mutations.ts";
import { noteRunSettled, recomputeRunCaches } from "../run-caches.ts";
import { countsForConversation } from "../../projections/conversation-count.ts";
import { withAsideOrdinal } from "../../projections/run-number.ts";
import type { ThreadState } from "../thread-state.ts";
import { moveQueuedRunItemsToTail } from "./queued-items.ts";
import {
  cancelPendingRequests,
  expireStrandedRequests,
  releaseProviderThread,
  strandPendingRequests,
} from "./shared.ts";
import { limitOver, limitRetried } from "./usage-limit.ts";

export function onRunQueued(s: ThreadState, d: EventData<"RunQueued">): void {
  putRun(s, d.run);
  s.runOrder.push(d.run.id);
  if (!countsForConversation(d.run)) {
    s.asideRunCount += 1;
    s.asideRuns = withAsideOrdinal(s.asideRuns, d.run.ordinal);
  }
  s.queuedRunIds.add(d.run.id);
  putMessage(s, d.message);
  addItem(s, d.item, d.message.id);
  touchShell(s, d.at);
}

export function onRunStarted(s: ThreadState, d: EventData<"RunStarted">): void {
  const run = s.runs.get(d.runId);
  if (!run) return;
  moveQueuedRunItemsToTail(s, run);
  expireStrandedRequests(s, d.at);
  putAttempt(s, d.attempt);
  putNode(s, d.rootNode);
  putRun(s, {
    ...run,
    status: "starting",
    startedAt: d.at,
    providerThreadId: d.attempt.providerThreadId,
    rootNodeId: d.rootNode.id,
    activeAttemptId: d.attempt.id,
    contextHandoffId: d.contextHandoffId ?? run.contextHandoffId,
  });
  s.queuedRunIds.delete(run.id);
  s.activeRunId = run.id;
  if (s.thread) {
    s.thread = { ...s.thread, activeProviderThreadId: d.attempt.providerThreadId, updatedAt: d.at };
  }
  touchShell(s, d.at);
}

export function onRunCancelled(s: ThreadState, d: EventData<"RunCancelled">): void {
  const run = s.runs.get(d.runId);
  if (!run) return;
  moveQueuedRunItemsToTail(s, run);
  putRun(s, { ...run, status: "cancelled", completedAt: d.at });
  s.queuedRunIds.delete(run.id);
  s.cancelledRunCount += 1;
  if (!countsForConversation(run)) s.asideRunCount -= 1;
  touchShell(s, d.at);
}

/**
 * E4 retry: the run waits in the queue again, its error cleared; the next start makes a `retry`
 * attempt. Requests a restart stranded cannot be answered by it, so they expire now.
 */
export function onRunRetryQueued(s: ThreadState, d: EventData<"RunRetryQueued">): void {
  const run = s.runs.get(d.runId);
  if (!run) return;
  expireStrandedRequests(s, d.at);
  putRun(s, {
    ...run,
    status: "queued",
    completedAt: null,
    interruptRequestedAt: null,
    error: null,
  });
  // It goes first: a retry waits for no queued run, except those a usage limit held (issue 32),
  // which came after it.
  const behind = [...s.queuedRunIds].filter((id) => id !== run.id);
  s.queuedRunIds.clear();
  for (const id of [run.id, ...behind]) s.queuedRunIds.add(id);
  limitRetried(s, run.id, d.at);
  // The run no longer counts as settled; retries are user-paced, so a rescan is cheap enough.
  recomputeRunCaches(s);
  touchShell(s, d.at);
}

export function onRunInterruptRequested(
  s: ThreadState,
  d: EventData<"RunInterruptRequested">,
): void {
  const run = s.runs.get(d.runId);
  if (run) putRun(s, { ...run, interruptRequestedAt: d.at });
}

export function onRunProgressNoted(s: ThreadState, d: EventData<"RunProgressNoted">): void {
  const run = s.runs.get(d.runId);
  if (run) putRun(s, { ...run, progress: d.progress });
}

/** Ends the run and everything still open under it (attempt, nodes, pending requests). */
export function onRunFinished(s: ThreadState, d: EventData<"RunFinished">): void {
  const run = s.runs.get(d.runId);
  if (!run) return;
  moveQueuedRunItemsToTail(s, run);
  const attempt = run.activeAttemptId ? s.attempts.get(run.activeAttemptId) : undefined;
  if (attempt && (attempt.status === "pending" || attempt.status === "running")) {
    putAttempt(s, { ...attempt, status: d.status, completedAt: d.at });
  }
  const childStatus = d.status === "completed" ? "completed" : "interrupted";
  cancelPendingRequests(s, (r) => r.runId === run.id, d.at);
  for (const nodeId of openNodeIds(s, run.id)) {
    const isRoot = nodeId === run.rootNodeId;
    const status = isRoot ? d.status : childStatus;
    finishNode(s, nodeId, status, status, d.at);
  }
  // A live notice (B15) says nothing once the run has ended: its error does.
  const notice = run.progress ? { progress: null } : {};
  settleRun(s, { ...run, status: d.status, completedAt: d.at, error: d.error, ...notice }, d.at);
  if (d.status === "completed") limitOver(s, run.provider, d.at);
}

export function onRunSteered(s: ThreadState, d: EventData<"RunSteered">): void {
  putMessage(s, d.message);
  addItem(s, d.item, d.message.id);
  touchShell(s, d.at);
}

export function onAttemptRestarted(s: ThreadState, d: EventData<"AttemptRestarted">): void {
  const run = s.runs.get(d.runId);
  const previous = s.attempts.get(d.previousAttemptId);
  if (!run || !previous) return;
  putAttempt(s, { ...previous, status: "superseded", completedAt: d.at });
  // The old turn's requests cannot be answered into the replacement attempt.
  if (previous.providerTurnId) {
    const turnId = previous.providerTurnId;
    cancelPendingRequests(s, (r) => r.providerTurnId === turnId, d.at);
  }
  finishNode(s, previous.rootNodeId, "interrupted", "interrupted", d.at);
  putAttempt(s, d.attempt);
  putNode(s, d.rootNode);
  if (d.message) putMessage(s, d.message);
  if (d.item && d.message) addItem(s, d.item, d.message.id);
  putRun(s, {
    ...run,
    status: run.status === "waiting" ? "running" : run.status,
    activeAttemptId: d.attempt.id,
    rootNodeId: d.rootNode.id,
    providerThreadId: d.attempt.providerThreadId,
  });
  touchShell(s, d.at);
}

/**
 * R2: nothing of the run stays in flight. Its requests stay listed as pending but `not_resumable`
 * with the reason (E15), so the person sees what was asked and why it cannot be answered, until
 * the thread's next run starts (`expireStrandedRequests`).
 */
export function onRunRecovered(s: ThreadState, d: EventData<"RunRecovered">): void {
  const run = s.runs.get(d.runId);
  if (!run) return;
  for (const attemptId of s.attemptIdsByRun.get(run.id) ?? []) {
    const attempt = s.attempts.get(attemptId);
    if (!attempt) continue;
    const turn = attempt.providerTurnId ? s.providerTurns.get(attempt.providerTurnId) : undefined;
    if (turn && (turn.status === "running" || turn.status === "pending")) {
      putProviderTurn(s, { ...turn, status: "interrupted", completedAt: d.at, error: d.reason });
      releaseProviderThread(s, turn.providerThreadId, run.ordinal, "not_loaded", d.at);
    }
    if (attempt.status === "pending" || attempt.status === "running") {
      putAttempt(s, { ...attempt, status: "interrupted", completedAt: d.at });
    }
  }
  strandPendingRequests(s, (r) => r.runId === run.id, d.reason, d.at);
  for (const nodeId of openNodeIds(s, run.id)) {
    finishNode(s, nodeId, "interrupted", "interrupted", d.at);
  }
  settleRun(s, { ...run, status: "interrupted", completedAt: d.at, error: d.reason }, d.at);
}

function settleRun(s: ThreadState, run: Run, at: string): void {
  putRun(s, run);
  // B1: a run that ends before it started (refused, failed to open its runtime) leaves the
  // queue too, or the dispatcher would pick it again forever.
  s.queuedRunIds.delete(run.id);
  if (s.activeRunId === run.id) s.activeRunId = null;
  noteRunSettled(s, run);
  touchShell(s, at);
}
