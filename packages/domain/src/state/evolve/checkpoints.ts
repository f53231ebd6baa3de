import type { EventData } from "../../events.ts";
import type { RunId } from "../../ids.ts";
import { addItem, putCheckpoint, putNode, putRun, putScope, touchShell } from "../mutations.ts";
import { noteRunSettled, recomputeRunCaches } from "../run-caches.ts";
import { countsForConversation } from "../../projections/conversation-count.ts";
import type { ThreadState } from "../thread-state.ts";

export function onCheckpointScopeRecorded(
  s: ThreadState,
  d: EventData<"CheckpointScopeRecorded">,
): void {
  const scope = d.scope;
  putScope(s, scope);
  if (scope.parentScopeId) {
    s.childScopeCount.set(
      scope.parentScopeId,
      (s.childScopeCount.get(scope.parentScopeId) ?? 0) + 1,
    );
  }
  const node = s.nodes.get(scope.nodeId);
  if (node) putNode(s, { ...node, checkpointScopeId: scope.id });
}

export function onCheckpointRecorded(s: ThreadState, d: EventData<"CheckpointRecorded">): void {
  const checkpoint = d.checkpoint;
  putCheckpoint(s, checkpoint);
  const count = s.checkpointCountByScope.get(checkpoint.scopeId) ?? 0;
  s.checkpointCountByScope.set(checkpoint.scopeId, count + 1);
  const scope = s.checkpointScopes.get(checkpoint.scopeId);
  if (scope?.kind === "root_run" && checkpoint.status === "ready") {
    s.lastRootCheckpointId = checkpoint.id;
    const run = checkpoint.runId ? s.runs.get(checkpoint.runId) : undefined;
    if (run) {
      const updated = { ...run, checkpointId: checkpoint.id };
      putRun(s, updated);
      noteRunSettled(s, updated);
    }
  }
  if (d.item) addItem(s, d.item, checkpoint.id);
  touchShell(s, d.at);
}

export function onCheckpointMarkedMissing(
  s: ThreadState,
  d: EventData<"CheckpointMarkedMissing">,
): void {
  const checkpoint = s.checkpoints.get(d.checkpointId);
  if (!checkpoint) return;
  putCheckpoint(s, { ...checkpoint, status: "missing" });
  const stableRun = s.latestStableRunId ? s.runs.get(s.latestStableRunId) : undefined;
  if (stableRun?.checkpointId === checkpoint.id) recomputeRunCaches(s);
  touchShell(s, d.at);
}

/** O(rolled-back runs + their nodes): rollbacks are rare, user-paced operations. */
export function onThreadRolledBack(s: ThreadState, d: EventData<"ThreadRolledBack">): void {
  const rolledBack: RunId[] = [...d.rolledBackRunIds];
  rolledBack.sort((a, b) => (s.runs.get(a)?.ordinal ?? 0) - (s.runs.get(b)?.ordinal ?? 0));
  for (const runId of rolledBack) {
    const run = s.runs.get(runId);
    if (!run) continue;
    putRun(s, { ...run, status: "rolled_back" });
    s.rolledBackRunOrdinals.push(run.ordinal);
    if (!countsForConversation(run)) s.asideRunCount -= 1;
    const checkpoint = run.checkpointId ? s.checkpoints.get(run.checkpointId) : undefined;
    if (checkpoint?.status === "ready") putCheckpoint(s, { ...checkpoint, status: "stale" });
    for (const nodeId of s.nodeIdsByRun.get(run.id) ?? []) {
      const node = s.nodes.get(nodeId);
      if (
        node &&
        (node.status === "completed" || node.status === "interrupted" || node.status === "failed")
      ) {
        putNode(s, { ...node, status: "rolled_back" });
      }
    }
  }
  s.rolledBackRunOrdinals.sort((a, b) => a - b);
  recomputeRunCaches(s);
  addItem(s, d.item, null);
  touchShell(s, d.at);
}
