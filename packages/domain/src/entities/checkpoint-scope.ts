import { z } from "zod";
import { CheckpointScopeId, NodeId, ProviderThreadId, RunId, ThreadId } from "../ids.ts";
import { IsoTimestamp } from "./common.ts";

export const CheckpointScopeKind = z.enum([
  "root_run",
  "subagent",
  "tool",
  "provider_thread",
  "manual",
]);
export type CheckpointScopeKind = z.infer<typeof CheckpointScopeKind>;

/** E6: a checkpointable filesystem unit; only root-run scopes advance the app run count. */
export const CheckpointScope = z.object({
  id: CheckpointScopeId,
  threadId: ThreadId,
  runId: RunId.nullable(),
  nodeId: NodeId,
  parentScopeId: CheckpointScopeId.nullable(),
  providerThreadId: ProviderThreadId.nullable(),
  kind: CheckpointScopeKind,
  ordinalWithinParent: z.number().int().nonnegative(),
  advancesAppRunCount: z.boolean(),
  cwd: z.string().min(1),
  createdAt: IsoTimestamp,
});
export type CheckpointScope = z.infer<typeof CheckpointScope>;
