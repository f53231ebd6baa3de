import { addTokenUsage } from "../../entities/common.ts";
import type { EventData } from "../../events.ts";
import type { ProviderTurnId } from "../../ids.ts";
import {
  finishNode,
  openNodeIds,
  putAttempt,
  putNode,
  putProviderThread,
  putProviderTurn,
  putRun,
  touchShell,
} from "../mutations.ts";
import { withLaterFrame } from "../../thread/raw-frames.ts";
import type { ThreadState } from "../thread-state.ts";
import { cancelPendingRequests, releaseProviderThread, strandPendingRequests } from "./shared.ts";

export function onProviderThreadRecorded(
  s: ThreadState,
  d: EventData<"ProviderThreadRecorded">,
): void {
  putProviderThread(s, d.providerThread);
}

export function onProviderThreadUpdated(
  s: ThreadState,
  d: EventData<"ProviderThreadUpdated">,
): void {
  const providerThread = s.providerThreads.get(d.providerThreadId);
  if (!providerThread) return;
  putProviderThread(s, { ...providerThread, ...d.changes, updatedAt: d.at });
}

export function onProviderTurnStarted(s: ThreadState, d: EventData<"ProviderTurnStarted">): void {
  const turn = d.providerTurn;
  putProviderTurn(s, turn);
  const ptId = turn.providerThreadId;
  s.turnCountByProviderThread.set(ptId, (s.turnCountByProviderThread.get(ptId) ?? 0) + 1);
  s.runningTurnsByProviderThread.set(ptId, (s.runningTurnsByProviderThread.get(ptId) ?? 0) + 1);
  const providerThread = s.providerThreads.get(ptId);
  if (providerThread && providerThread.status !== "active") {
    putProviderThread(s, { ...providerThread, status: "active", updatedAt: d.at });
  }
  const attempt = turn.runAttemptId ? s.attempts.get(turn.runAttemptId) : undefined;
  if (attempt) {
    putAttempt(s, {
      ...attempt,
      status: "running",
      providerTurnId: turn.id,
      startedAt: attempt.startedAt ?? d.at,
    });
  }
  const root = s.nodes.get(turn.nodeId);
  if (root) {
    putNode(s, {
      ...root,
      status: "running",
      providerTurnId: turn.id,
      startedAt: root.startedAt ?? d.at,
    });
  }
  const run = s.runs.get(d.runId);
  if (run && run.status === "starting") putRun(s, { ...run, status: "running" });
  touchShell(s, d.at);
}

/** B8: the turn's root node's frames run from the turn's own start frame to its end frame. */
function extendRootFrames(
  s: ThreadState,
  providerTurnId: ProviderTurnId,
  rawEventId: string | undefined,
): void {
  const turn = s.providerTurns.get(providerTurnId);
  const root = turn ? s.nodes.get(turn.nodeId) : undefined;
  if (root && rawEventId !== undefined) putNode(s, withLaterFrame(root, rawEventId));
}

export function onProviderTurnFrameRecorded(
  s: ThreadState,
  d: EventData<"ProviderTurnFrameRecorded">,
): void {
  extendRootFrames(s, d.providerTurnId, d.rawEventId);
}

/** The turn ends; its attempt and nodes end with it. The run itself ends via RunFinished. */
export function onProviderTurnCompleted(
  s: ThreadState,
  d: EventData<"ProviderTurnCompleted">,
): void {
  const turn = s.providerTurns.get(d.providerTurnId);
  if (!turn) return;
  putProviderTurn(s, {
    ...turn,
    status: d.status,
    completedAt: d.at,
    error: d.error,
    usage: d.usage,
  });
  extendRootFrames(s, turn.id, d.rawEventId);
  const attempt = turn.runAttemptId ? s.attempts.get(turn.runAttemptId) : undefined;
  if (attempt && (attempt.status === "pending" || attempt.status === "running")) {
    putAttempt(s, { ...attempt, status: d.status, completedAt: d.at });
  }
  const run = attempt ? s.runs.get(attempt.runId) : undefined;
  const ofTurn = (r: { providerTurnId: string | null }) => r.providerTurnId === turn.id;
  if (d.status !== "completed" && run && !run.interruptRequestedAt) {
    // Nobody ended it on purpose (shutdown, crash): what was asked stays visible (E15).
    const why = d.error ? `: ${d.error}` : "";
    const reason = `The provider turn ended ${d.status} before this was answered${why}`;
    strandPendingRequests(s, ofTurn, reason, d.at);
  }
  cancelPendingRequests(s, ofTurn, d.at);
  if (run) {
    const childStatus = d.status === "completed" ? "completed" : "interrupted";
    for (const nodeId of openNodeIds(s, run.id)) {
      const node = s.nodes.get(nodeId);
      if (node?.id === turn.nodeId) finishNode(s, nodeId, d.status, d.status, d.at);
      else if (node?.providerTurnId === turn.id)
        finishNode(s, nodeId, childStatus, childStatus, d.at);
    }
    releaseProviderThread(s, turn.providerThreadId, run.ordinal, "idle", d.at);
    if (d.usage) {
      // Every attempt's tokens were spent, so retries and interrupted turns count too.
      const latest = s.runs.get(run.id) ?? run;
      putRun(s, { ...latest, usage: addTokenUsage(latest.usage, d.usage) });
      s.usageTotal = addTokenUsage(s.usageTotal, d.usage);
    }
  }
  touchShell(s, d.at);
}
