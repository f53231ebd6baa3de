import type { CommandData } from "../commands.ts";
import type { ConversationMessage } from "../entities/conversation-message.ts";
import type { ExecutionNode, ExecutionNodeKind } from "../entities/execution-node.ts";
import type { PlanArtifact } from "../entities/plan-artifact.ts";
import type { ProviderTurn } from "../entities/provider-turn.ts";
import type { Run } from "../entities/run.ts";
import type { RunAttempt } from "../entities/run-attempt.ts";
import {
  COMPACTION_RUNNING_TITLE,
  type TurnItem,
  type TurnItemContent,
  type TurnItemContentType,
  type TurnItemOf,
} from "../entities/turn-item.ts";
import { PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { ProviderTurnId, TurnItemId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import { itemForSubject, nativeRefKey, type ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { buildNode, itemBase } from "./builders.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";
import { supersedeOtherPlans } from "./plan-status.ts";
import { rawFramesFrom, rawRef } from "./raw-frames.ts";

/** Which reported contents each node kind may carry; `null` = the node may have no item. */
const CONTENT_BY_KIND: Partial<Record<ExecutionNodeKind, readonly (TurnItemContentType | null)[]>> =
  {
    assistant_message: ["assistant_message", null],
    reasoning: ["reasoning", null],
    tool_call: ["file_change", "command_execution", "file_search", "web_search", "dynamic_tool"],
    system: ["compaction", "dynamic_tool", null],
    hook: ["dynamic_tool", null],
    subagent: ["dynamic_tool", null],
  };

export type TurnContext = { turn: ProviderTurn; attempt: RunAttempt; run: Run };

/** Items and requests attach to a running provider turn; the turn names attempt and run. */
export function requireRunningTurn(s: ThreadState, providerTurnId: ProviderTurnId): TurnContext {
  const turn = requireEntity(s.providerTurns, providerTurnId, "ProviderTurn");
  if (turn.status !== "running") {
    throw new PreconditionFailedError(`provider turn ${turn.id} is ${turn.status}`);
  }
  if (!turn.runAttemptId)
    throw new PreconditionFailedError(`provider turn ${turn.id} has no attempt`);
  const attempt = requireEntity(s.attempts, turn.runAttemptId, "RunAttempt");
  const run = requireEntity(s.runs, attempt.runId, "Run");
  return { turn, attempt, run };
}

export function requireParentNode(
  s: ThreadState,
  ctx: TurnContext,
  parentNodeId: ExecutionNode["id"] | undefined,
): ExecutionNode {
  const parent = requireEntity(s.nodes, parentNodeId ?? ctx.turn.nodeId, "ExecutionNode");
  if (parent.runId !== ctx.run.id) {
    throw new ValidationError(`node ${parent.id} belongs to another run`, [
      { path: "parentNodeId", message: "must be a node of the same run" },
    ]);
  }
  return parent;
}

export function isHiddenUnder(s: ThreadState, parent: ExecutionNode): boolean {
  return parent.kind === "subagent" || s.hiddenNodeIds.has(parent.id);
}

export function startItem(
  d: CommandData<"StartItem">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const ctx = requireRunningTurn(s, d.providerTurnId);
  requireAbsent(s.nodes, d.nodeId, "ExecutionNode");
  // E18: only the runtime's own ids name an item again; a weak ref that repeats is new work.
  const strength = d.nativeItemRef ? (d.nativeRefStrength ?? "strong") : undefined;
  if (
    d.nativeItemRef &&
    strength === "strong" &&
    s.nodeByNativeRef.has(nativeRefKey(ctx.turn.id, d.nativeItemRef))
  ) {
    throw new PreconditionFailedError(`native item ${d.nativeItemRef} already started`);
  }
  const parent = requireParentNode(s, ctx, d.parentNodeId);
  const content = d.content ?? defaultContent(d.kind);
  const allowed = CONTENT_BY_KIND[d.kind] ?? [null];
  if (!allowed.includes(content?.type ?? null)) {
    throw new ValidationError(`a ${d.kind} node cannot carry ${content?.type ?? "no"} content`, [
      { path: "content.type", message: `expected one of ${allowed.map(String).join(", ")}` },
    ]);
  }
  const hidden = isHiddenUnder(s, parent);
  const node: ExecutionNode = {
    ...buildNode({
      id: d.nodeId,
      threadId: thread.id,
      run: ctx.run,
      kind: d.kind,
      parent,
      status: "running",
      providerThreadId: ctx.turn.providerThreadId,
      providerTurnId: ctx.turn.id,
      nativeItemRef: d.nativeItemRef ?? null,
      countsForRun: d.countsForRun ?? !hidden,
      at: meta.at,
    }),
    ...(strength ? { nativeRefStrength: strength } : {}),
    ...(d.summary ? { summary: d.summary } : {}),
    ...rawFramesFrom(d.rawEventId),
  };
  const message: ConversationMessage | null =
    content?.type === "assistant_message"
      ? {
          id: meta.ids.next("message"),
          threadId: thread.id,
          runId: ctx.run.id,
          nodeId: node.id,
          role: "assistant",
          text: content.text,
          attachments: [],
          streaming: true,
          createdAt: meta.at,
          updatedAt: meta.at,
        }
      : null;
  // Subagent children stay in the graph (node, message) but never reach the thread's turnItems.
  const item =
    content && !hidden
      ? {
          ...contentItem(meta.ids.next("item"), content, node, ctx.run, message, meta.at),
          ...rawFramesFrom(d.rawEventId),
        }
      : null;
  return [
    { type: "ItemStarted", data: { node, message, item, at: meta.at, ...rawRef(d.rawEventId) } },
  ];
}

function defaultContent(kind: ExecutionNodeKind): TurnItemContent | undefined {
  if (kind === "assistant_message") return { type: "assistant_message", text: "" };
  if (kind === "reasoning") return { type: "reasoning", text: "" };
  return undefined;
}

function contentItem(
  id: TurnItemId,
  content: TurnItemContent,
  node: ExecutionNode,
  run: Run,
  message: ConversationMessage | null,
  at: string,
): TurnItem {
  const base = itemBase({
    id,
    threadId: node.threadId,
    run,
    nodeId: node.id,
    providerTurnId: node.providerTurnId,
    nativeItemRef: node.nativeItemRef,
    status: "running",
    at,
  });
  if (content.type === "assistant_message" && message) {
    return { ...base, ...content, messageId: message.id };
  }
  switch (content.type) {
    case "assistant_message":
      throw new Error("an assistant_message item needs its message");
    case "compaction":
      return { ...base, ...content, title: COMPACTION_RUNNING_TITLE };
    default:
      return { ...base, ...content };
  }
}

/** Streamed text; nodes with nothing to stream into (hidden reasoning) accept it as a no-op. */
export function appendItemDelta(
  d: CommandData<"AppendItemDelta">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const node = requireEntity(s.nodes, d.nodeId, "ExecutionNode");
  if (node.status !== "running" && node.status !== "pending" && node.status !== "waiting") {
    throw new PreconditionFailedError(`node ${node.id} is ${node.status}`);
  }
  const item = itemForSubject(s, node.id)?.item;
  const streams =
    s.messageByNode.has(node.id) ||
    item?.type === "assistant_message" ||
    item?.type === "reasoning" ||
    item?.type === "command_execution";
  if (!streams) {
    if (!item && s.hiddenNodeIds.has(node.id)) return [];
    throw new ValidationError(`node ${node.id} has no text or output to stream into`);
  }
  return [
    {
      type: "ItemDeltaAppended",
      data: { nodeId: node.id, delta: d.delta, at: meta.at, ...rawRef(d.rawEventId) },
    },
  ];
}

export function completeItem(
  d: CommandData<"CompleteItem">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const node = requireEntity(s.nodes, d.nodeId, "ExecutionNode");
  if (node.kind === "root_turn") {
    throw new ValidationError(
      "a root node completes with its provider turn (CompleteProviderTurn)",
    );
  }
  if (node.kind === "approval_request" || node.kind === "user_input_request") {
    throw new ValidationError("a request node completes when the request is resolved");
  }
  const nodeStatus = d.status === "declined" ? "cancelled" : d.status;
  assertTransition("ExecutionNode", node.status, nodeStatus, node.id);
  const item = itemForSubject(s, node.id)?.item;
  if (d.content) {
    const hasMessage = s.messageByNode.has(node.id);
    const expected = item?.type ?? (hasMessage ? "assistant_message" : null);
    if (expected !== d.content.type) {
      throw new ValidationError(`node ${node.id} cannot complete with ${d.content.type} content`, [
        { path: "content.type", message: `expected ${expected ?? "no content"}` },
      ]);
    }
  }
  return [
    {
      type: "ItemCompleted",
      data: {
        nodeId: node.id,
        status: d.status,
        content: d.content ?? null,
        at: meta.at,
        ...rawRef(d.rawEventId),
      },
    },
  ];
}

/** Todo lists and proposed plans (E17): one artifact, node and turn item per plan id. */
export function updatePlan(
  d: CommandData<"UpdatePlan">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const ctx = requireRunningTurn(s, d.providerTurnId);
  const existing = s.plans.get(d.planId);
  if (existing) {
    if (existing.kind !== d.kind || existing.nodeId !== d.nodeId) {
      throw new ValidationError(
        `plan ${existing.id} is a ${existing.kind} on node ${existing.nodeId}`,
      );
    }
    if (existing.status !== d.status) {
      assertTransition("PlanArtifact", existing.status, d.status, existing.id);
    }
  }
  let node: ExecutionNode | null = null;
  const existingNode = s.nodes.get(d.nodeId);
  if (existingNode && existingNode.runId !== ctx.run.id) {
    throw new ValidationError(`node ${existingNode.id} belongs to another run`);
  }
  if (!existingNode) {
    node = buildNode({
      id: d.nodeId,
      threadId: thread.id,
      run: ctx.run,
      kind: d.kind === "todo_list" ? "todo_list" : "plan",
      parent: requireParentNode(s, ctx, undefined),
      status: "running",
      providerThreadId: ctx.turn.providerThreadId,
      providerTurnId: ctx.turn.id,
      countsForRun: true,
      at: meta.at,
    });
    node = { ...node, ...rawFramesFrom(d.rawEventId) };
  }
  const plan: PlanArtifact = {
    id: d.planId,
    threadId: thread.id,
    runId: ctx.run.id,
    nodeId: d.nodeId,
    kind: d.kind,
    status: d.status,
    ...(d.markdown !== undefined ? { markdown: d.markdown } : {}),
    ...(d.steps !== undefined ? { steps: d.steps } : {}),
    createdAt: existing?.createdAt ?? meta.at,
    updatedAt: meta.at,
  };
  const hidden = existingNode ? s.hiddenNodeIds.has(existingNode.id) : false;
  const item: TurnItemOf<"plan"> | null =
    existing || hidden
      ? null
      : {
          ...itemBase({
            id: meta.ids.next("item"),
            threadId: thread.id,
            run: ctx.run,
            nodeId: d.nodeId,
            providerTurnId: ctx.turn.id,
            status: "completed",
            at: meta.at,
          }),
          type: "plan",
          planId: plan.id,
          kind: plan.kind,
          planStatus: plan.status,
          ...(plan.markdown !== undefined ? { markdown: plan.markdown } : {}),
          ...(plan.steps !== undefined ? { steps: plan.steps } : {}),
          ...rawFramesFrom(d.rawEventId),
        };
  const superseded =
    !existing && plan.kind === "proposed_plan" ? supersedeOtherPlans(s, plan.id, meta) : [];
  return [
    ...superseded,
    { type: "PlanUpdated", data: { plan, node, item, at: meta.at, ...rawRef(d.rawEventId) } },
  ];
}
