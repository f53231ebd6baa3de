import { z } from "zod";
import { AnswersInput } from "../inputs/text.ts";
import { NativeRef, RawLogRef } from "../entities/common.ts";
import { ExecutionNodeKind, NativeRefStrength } from "../entities/execution-node.ts";
import { PlanKind, PlanStatus, PlanStep, UserInputQuestion } from "../entities/plan-artifact.ts";
import { RequestDecision, RuntimeRequestKind } from "../entities/runtime-request.ts";
import { TurnItemContent } from "../entities/turn-item.ts";
import { ItemTerminalStatus } from "../events/item-events.ts";
import {
  NodeId,
  PlanId,
  ProviderSessionId,
  ProviderTurnId,
  RuntimeRequestId,
  ThreadId,
} from "../ids.ts";
import { defineCommand } from "./define.ts";

/**
 * A runtime item started inside a provider turn. `parentNodeId` defaults to the turn's root node;
 * nodes under a `subagent` node stay in the graph but get no turn item.
 */
export const StartItem = defineCommand("StartItem", {
  threadId: ThreadId,
  providerTurnId: ProviderTurnId,
  nodeId: NodeId,
  kind: ExecutionNodeKind.exclude(["root_turn", "approval_request", "user_input_request"]),
  parentNodeId: NodeId.optional(),
  nativeItemRef: NativeRef.nullable().optional(),
  /** E18: absent means `strong` (the runtime's own id). */
  nativeRefStrength: NativeRefStrength.optional(),
  /** For `hook` and `system` nodes: what they are about, in the runtime's words. */
  summary: z.string().min(1).max(2_000).optional(),
  countsForRun: z.boolean().optional(),
  content: TurnItemContent.optional(),
  /** B8: the raw provider frame this command came from. */
  rawEventId: RawLogRef.optional(),
});

export const AppendItemDelta = defineCommand("AppendItemDelta", {
  threadId: ThreadId,
  nodeId: NodeId,
  delta: z.string().min(1),
  rawEventId: RawLogRef.optional(),
});

export const CompleteItem = defineCommand("CompleteItem", {
  threadId: ThreadId,
  nodeId: NodeId,
  status: ItemTerminalStatus,
  /** The final payload; replaces the variant fields (must keep the item's type). */
  content: TurnItemContent.optional(),
  rawEventId: RawLogRef.optional(),
});

export const UpdatePlan = defineCommand("UpdatePlan", {
  threadId: ThreadId,
  providerTurnId: ProviderTurnId,
  planId: PlanId,
  /** The plan's node; created (as plan/todo_list) on the first update if it does not exist. */
  nodeId: NodeId,
  kind: PlanKind,
  status: PlanStatus,
  markdown: z.string().optional(),
  steps: z.array(PlanStep).optional(),
  rawEventId: RawLogRef.optional(),
});

export const OpenRuntimeRequest = defineCommand("OpenRuntimeRequest", {
  threadId: ThreadId,
  providerTurnId: ProviderTurnId,
  requestId: RuntimeRequestId,
  nodeId: NodeId,
  parentNodeId: NodeId.optional(),
  nativeRequestRef: NativeRef.nullable().optional(),
  kind: RuntimeRequestKind,
  providerSessionId: ProviderSessionId,
  title: z.string().min(1),
  detail: z.string().nullable().optional(),
  /** user_input questions; recorded as a `questions` PlanArtifact (E17). */
  questions: z.array(UserInputQuestion).optional(),
  rawEventId: RawLogRef.optional(),
});

export const ResolveRuntimeRequest = defineCommand("ResolveRuntimeRequest", {
  threadId: ThreadId,
  requestId: RuntimeRequestId,
  decision: RequestDecision,
  answers: AnswersInput.optional(),
});

/** The provider took a request back without our answer (Codex `serverRequest/resolved`). */
export const WithdrawRuntimeRequest = defineCommand("WithdrawRuntimeRequest", {
  threadId: ThreadId,
  requestId: RuntimeRequestId,
  reason: z.string().min(1).max(2_000),
});
