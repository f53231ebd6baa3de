import { z } from "zod";
import {
  CheckpointScopeId,
  NodeId,
  ProviderThreadId,
  ProviderTurnId,
  RunId,
  RuntimeRequestId,
  ThreadId,
} from "../ids.ts";
import { IsoTimestamp, NativeRef, RawFrames } from "./common.ts";

export const ExecutionNodeKind = z.enum([
  "root_turn",
  "assistant_message",
  "reasoning",
  "plan",
  "todo_list",
  "tool_call",
  "approval_request",
  "user_input_request",
  "subagent",
  "hook",
  "system",
]);
export type ExecutionNodeKind = z.infer<typeof ExecutionNodeKind>;

export const ExecutionNodeStatus = z.enum([
  "pending",
  "running",
  "waiting",
  "completed",
  "interrupted",
  "failed",
  "cancelled",
  "rolled_back",
]);
export type ExecutionNodeStatus = z.infer<typeof ExecutionNodeStatus>;

/**
 * E18: how far a node's native ref can be trusted to name the same item again. `strong`: the
 * runtime's own id for the item (Codex item ids, Claude message/tool/hook ids), unique across
 * restarts; `weak`: one the adapter made up (a counter, a position), which a restarted runtime may
 * hand out again for different work, so it never matches an existing node.
 */
export const NativeRefStrength = z.enum(["strong", "weak"]);
export type NativeRefStrength = z.infer<typeof NativeRefStrength>;

/** E5: the unit of runtime work. Only a run's root node can complete the run. */
export const ExecutionNode = z.object({
  id: NodeId,
  threadId: ThreadId,
  runId: RunId.nullable(),
  parentNodeId: NodeId.nullable(),
  rootNodeId: NodeId,
  kind: ExecutionNodeKind,
  status: ExecutionNodeStatus,
  countsForRun: z.boolean(),
  providerThreadId: ProviderThreadId.nullable(),
  providerTurnId: ProviderTurnId.nullable(),
  nativeItemRef: NativeRef.nullable(),
  /** E18: whether `nativeItemRef` is the runtime's own id (absent on nodes recorded before it). */
  nativeRefStrength: NativeRefStrength.optional(),
  /** What a `hook` or `system` node is about, in the runtime's words (hook name, notice text). */
  summary: z.string().min(1).max(2_000).optional(),
  runtimeRequestId: RuntimeRequestId.nullable(),
  checkpointScopeId: CheckpointScopeId.nullable(),
  startedAt: IsoTimestamp.nullable(),
  completedAt: IsoTimestamp.nullable(),
  /** B8: the raw provider frames this node came from (absent where none were logged). */
  rawFrames: RawFrames.optional(),
});
export type ExecutionNode = z.infer<typeof ExecutionNode>;
