import { z } from "zod";
import { CheckpointFileSummary, NetChange, RollbackScope } from "../entities/checkpoint.ts";
import { CheckpointScopeKind } from "../entities/checkpoint-scope.ts";
import {
  CheckpointId,
  CheckpointScopeId,
  NodeId,
  ProviderThreadId,
  RunId,
  ThreadId,
} from "../ids.ts";
import { defineCommand } from "./define.ts";

export const RecordCheckpointScope = defineCommand("RecordCheckpointScope", {
  threadId: ThreadId,
  scopeId: CheckpointScopeId,
  kind: CheckpointScopeKind,
  nodeId: NodeId,
  runId: RunId.nullable().optional(),
  parentScopeId: CheckpointScopeId.nullable().optional(),
  providerThreadId: ProviderThreadId.nullable().optional(),
  cwd: z.string().min(1),
});

export const RecordCheckpoint = defineCommand("RecordCheckpoint", {
  threadId: ThreadId,
  checkpointId: CheckpointId,
  scopeId: CheckpointScopeId,
  /** Defaults to the scope's node. */
  nodeId: NodeId.optional(),
  ref: z.string().min(1),
  status: z.enum(["ready", "error"]),
  files: z.array(CheckpointFileSummary),
  /** Issue 29: the thread's net change at this checkpoint (a root run's ready one). */
  netChange: NetChange.optional(),
});

export const MarkCheckpointMissing = defineCommand("MarkCheckpointMissing", {
  threadId: ThreadId,
  checkpointId: CheckpointId,
});

/**
 * Restore a root-run checkpoint: later runs become rolled_back (scope `code` keeps them). A
 * `manual` (safety) checkpoint restores files only. Refused while a run is active.
 */
export const RollbackThread = defineCommand("RollbackThread", {
  threadId: ThreadId,
  checkpointId: CheckpointId,
  scope: RollbackScope.optional(),
  /** The files the rollback changed in the workspace (shown on its item); default: the checkpoint's. */
  files: z.array(CheckpointFileSummary).optional(),
});
