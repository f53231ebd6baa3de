import { z } from "zod";
import { CheckpointId, CheckpointScopeId, NodeId, RunId, ThreadId } from "../ids.ts";
import { IsoTimestamp } from "./common.ts";

export const CheckpointStatus = z.enum(["ready", "missing", "error", "stale"]);
export type CheckpointStatus = z.infer<typeof CheckpointStatus>;

export const CheckpointFileSummary = z.object({
  path: z.string().min(1),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
});
export type CheckpointFileSummary = z.infer<typeof CheckpointFileSummary>;

/**
 * Issue 29: the thread's net change at a checkpoint: its workspace then against the thread's
 * start (its baseline, else its base commit), counted once when captured so the sidebar shows
 * it without a git call per row. Lines of binary files are not counted.
 */
export const NetChange = z.object({
  files: z.number().int().nonnegative(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});
export type NetChange = z.infer<typeof NetChange>;

/** E7: a root-run checkpoint is the user-visible conversation checkpoint. */
export const Checkpoint = z.object({
  id: CheckpointId,
  threadId: ThreadId,
  scopeId: CheckpointScopeId,
  runId: RunId.nullable(),
  nodeId: NodeId,
  parentCheckpointId: CheckpointId.nullable(),
  ordinalWithinScope: z.number().int().positive(),
  appRunOrdinal: z.number().int().positive().nullable(),
  /** The VCS ref (e.g. a hidden git ref) holding the captured tree. */
  ref: z.string().min(1),
  status: CheckpointStatus,
  files: z.array(CheckpointFileSummary),
  /** Absent on checkpoints captured before issue 29, failed ones and child scopes'. */
  netChange: NetChange.optional(),
  capturedAt: IsoTimestamp,
});
export type Checkpoint = z.infer<typeof Checkpoint>;

/**
 * B14: what a rollback undoes. `code`: the files the rolled-back runs changed; `conversation`:
 * the runs themselves (rolled_back) and the provider's memory of them; `both` (the default).
 */
export const RollbackScope = z.enum(["code", "conversation", "both"]);
export type RollbackScope = z.infer<typeof RollbackScope>;
