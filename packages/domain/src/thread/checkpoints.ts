import type { CommandData } from "../commands.ts";
import type { Checkpoint } from "../entities/checkpoint.ts";
import type { CheckpointScope } from "../entities/checkpoint-scope.ts";
import type { TurnItemOf } from "../entities/turn-item.ts";
import { PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { RunId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import { isSettledRun } from "../state/run-caches.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { itemBase } from "./builders.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";

export function recordCheckpointScope(
  d: CommandData<"RecordCheckpointScope">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  requireAbsent(s.checkpointScopes, d.scopeId, "CheckpointScope");
  const node = requireEntity(s.nodes, d.nodeId, "ExecutionNode");
  const runId = d.runId ?? node.runId;
  const run = runId ? requireEntity(s.runs, runId, "Run") : null;
  if (d.parentScopeId) requireEntity(s.checkpointScopes, d.parentScopeId, "CheckpointScope");
  if (d.kind === "root_run" && (!run || d.parentScopeId)) {
    throw new ValidationError("a root_run scope belongs to a run and has no parent scope", [
      { path: d.parentScopeId ? "parentScopeId" : "runId", message: "invalid for root_run" },
    ]);
  }
  const scope: CheckpointScope = {
    id: d.scopeId,
    threadId: thread.id,
    runId: run?.id ?? null,
    nodeId: node.id,
    parentScopeId: d.parentScopeId ?? null,
    providerThreadId: d.providerThreadId ?? null,
    kind: d.kind,
    ordinalWithinParent: d.parentScopeId
      ? (s.childScopeCount.get(d.parentScopeId) ?? 0) + 1
      : d.kind === "root_run"
        ? (run?.ordinal ?? 0)
        : 0,
    // Only root-run scopes advance the app run count (E6).
    advancesAppRunCount: d.kind === "root_run",
    cwd: d.cwd,
    createdAt: meta.at,
  };
  return [{ type: "CheckpointScopeRecorded", data: { scope, at: meta.at } }];
}

export function recordCheckpoint(
  d: CommandData<"RecordCheckpoint">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  requireAbsent(s.checkpoints, d.checkpointId, "Checkpoint");
  const scope = requireEntity(s.checkpointScopes, d.scopeId, "CheckpointScope");
  const nodeId = d.nodeId ?? scope.nodeId;
  requireEntity(s.nodes, nodeId, "ExecutionNode");
  const run = scope.runId ? s.runs.get(scope.runId) : undefined;
  const isRoot = scope.kind === "root_run";
  const checkpoint: Checkpoint = {
    id: d.checkpointId,
    threadId: thread.id,
    scopeId: scope.id,
    runId: scope.runId,
    nodeId,
    parentCheckpointId: isRoot ? s.lastRootCheckpointId : (run?.checkpointId ?? null),
    ordinalWithinScope: (s.checkpointCountByScope.get(scope.id) ?? 0) + 1,
    appRunOrdinal: isRoot ? (run?.ordinal ?? null) : null,
    ref: d.ref,
    status: d.status,
    files: d.files,
    ...(d.netChange && isRoot && d.status === "ready" ? { netChange: d.netChange } : {}),
    capturedAt: meta.at,
  };
  const item: TurnItemOf<"checkpoint"> | null =
    isRoot && d.status === "ready"
      ? {
          ...itemBase({
            id: meta.ids.next("item"),
            threadId: thread.id,
            run: run ?? null,
            nodeId,
            status: "completed",
            at: meta.at,
          }),
          type: "checkpoint",
          checkpointId: checkpoint.id,
          action: "captured",
          appRunOrdinal: checkpoint.appRunOrdinal,
          files: checkpoint.files,
        }
      : null;
  return [{ type: "CheckpointRecorded", data: { checkpoint, item, at: meta.at } }];
}

export function markCheckpointMissing(
  d: CommandData<"MarkCheckpointMissing">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const checkpoint = requireEntity(s.checkpoints, d.checkpointId, "Checkpoint");
  assertTransition("Checkpoint", checkpoint.status, "missing", checkpoint.id);
  return [{ type: "CheckpointMarkedMissing", data: { checkpointId: checkpoint.id, at: meta.at } }];
}

/**
 * Restores a checkpoint. A root-run one with scope `conversation` or `both` makes every later
 * settled run rolled_back; scope `code` and a `manual` (safety) checkpoint keep the runs.
 */
export function rollbackThread(
  d: CommandData<"RollbackThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const checkpoint = requireEntity(s.checkpoints, d.checkpointId, "Checkpoint");
  const scope = requireEntity(s.checkpointScopes, checkpoint.scopeId, "CheckpointScope");
  const safety = scope.kind === "manual";
  // E6: a child scope's checkpoint (a sub-agent's) is restored alone: its files, never runs.
  const child = scope.kind === "subagent" || scope.kind === "tool";
  if ((scope.kind !== "root_run" && !safety && !child) || !checkpoint.runId) {
    throw new PreconditionFailedError(
      `checkpoint ${checkpoint.id} is not a conversation checkpoint`,
    );
  }
  const rollbackScope = d.scope ?? "both";
  if (safety && rollbackScope === "conversation") {
    throw new PreconditionFailedError(
      `checkpoint ${checkpoint.id} is a safety checkpoint: it holds files only; roll back its code`,
    );
  }
  // Its runs go on: `both` restores its files only, and the conversation alone is refused.
  if (child && rollbackScope === "conversation") {
    throw new PreconditionFailedError(
      `checkpoint ${checkpoint.id} is a sub-agent's checkpoint inside run ${checkpoint.runId}: it holds files only; roll back its code, or roll back the conversation to a run's checkpoint`,
    );
  }
  if (checkpoint.status !== "ready") {
    throw new PreconditionFailedError(`checkpoint ${checkpoint.id} is ${checkpoint.status}`);
  }
  if (s.activeRunId) {
    throw new PreconditionFailedError(
      `run ${s.activeRunId} is active; interrupt it before a rollback`,
    );
  }
  const target = requireEntity(s.runs, checkpoint.runId, "Run");
  if (!safety && target.status !== "completed") {
    throw new PreconditionFailedError(`run ${target.id} is ${target.status}`);
  }
  const rolledBackRunIds: RunId[] = [];
  if (!safety && !child && rollbackScope !== "code") {
    for (let ordinal = s.runOrder.length; ordinal > target.ordinal; ordinal -= 1) {
      const run = s.runs.get(s.runOrder[ordinal - 1] as RunId);
      if (run && isSettledRun(run)) rolledBackRunIds.push(run.id);
    }
  }
  rolledBackRunIds.reverse();
  const item: TurnItemOf<"checkpoint"> = {
    ...itemBase({
      id: meta.ids.next("item"),
      threadId: thread.id,
      run: null,
      status: "completed",
      at: meta.at,
    }),
    type: "checkpoint",
    checkpointId: checkpoint.id,
    action: "restored",
    appRunOrdinal: target.ordinal,
    files: d.files ?? checkpoint.files,
  };
  return [
    {
      type: "ThreadRolledBack",
      data: {
        checkpointId: checkpoint.id,
        runOrdinal: target.ordinal,
        rolledBackRunIds,
        item,
        at: meta.at,
      },
    },
  ];
}
