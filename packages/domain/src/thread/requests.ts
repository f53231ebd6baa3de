import type { CommandData } from "../commands.ts";
import type { PlanArtifact } from "../entities/plan-artifact.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { TurnItemOf } from "../entities/turn-item.ts";
import { PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { buildNode, itemBase } from "./builders.ts";
import { rawFramesFrom, rawRef } from "./raw-frames.ts";
import { requireAbsent, requireEntity, requireThread } from "./guards.ts";
import { isHiddenUnder, requireParentNode, requireRunningTurn } from "./items.ts";

/** A provider callback (E15): request pending, its node waiting, the run waiting for an answer. */
export function openRuntimeRequest(
  d: CommandData<"OpenRuntimeRequest">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  const ctx = requireRunningTurn(s, d.providerTurnId);
  requireAbsent(s.requests, d.requestId, "RuntimeRequest");
  requireAbsent(s.nodes, d.nodeId, "ExecutionNode");
  if (d.questions && d.kind !== "user_input") {
    throw new ValidationError("only user_input requests carry questions", [
      { path: "questions", message: `not allowed for kind ${d.kind}` },
    ]);
  }
  const parent = requireParentNode(s, ctx, d.parentNodeId);
  const node = {
    ...buildNode({
      id: d.nodeId,
      threadId: thread.id,
      run: ctx.run,
      kind: d.kind === "user_input" ? "user_input_request" : "approval_request",
      parent,
      status: "waiting",
      providerThreadId: ctx.turn.providerThreadId,
      providerTurnId: ctx.turn.id,
      nativeItemRef: d.nativeRequestRef ?? null,
      countsForRun: false,
      at: meta.at,
    }),
    runtimeRequestId: d.requestId,
    ...rawFramesFrom(d.rawEventId),
  };
  const request: RuntimeRequest = {
    id: d.requestId,
    threadId: thread.id,
    runId: ctx.run.id,
    nodeId: node.id,
    providerTurnId: ctx.turn.id,
    nativeRequestRef: d.nativeRequestRef ?? null,
    kind: d.kind,
    status: "pending",
    responseCapability: { type: "live", providerSessionId: d.providerSessionId },
    title: d.title,
    detail: d.detail ?? null,
    decision: null,
    answers: null,
    createdAt: meta.at,
    resolvedAt: null,
  };
  const item: TurnItemOf<"approval_request"> | null = isHiddenUnder(s, parent)
    ? null
    : {
        ...itemBase({
          id: meta.ids.next("item"),
          threadId: thread.id,
          run: ctx.run,
          nodeId: node.id,
          providerTurnId: ctx.turn.id,
          nativeItemRef: request.nativeRequestRef,
          status: "pending",
          at: meta.at,
        }),
        type: "approval_request",
        requestId: request.id,
        requestKind: request.kind,
        title: request.title,
        detail: request.detail,
        decision: null,
        ...rawFramesFrom(d.rawEventId),
      };
  const plan: PlanArtifact | null = d.questions
    ? {
        id: meta.ids.next("plan"),
        threadId: thread.id,
        runId: ctx.run.id,
        nodeId: node.id,
        kind: "questions",
        status: "active",
        questions: d.questions,
        createdAt: meta.at,
        updatedAt: meta.at,
      }
    : null;
  return [
    {
      type: "RuntimeRequestOpened",
      data: { request, node, item, plan, at: meta.at, ...rawRef(d.rawEventId) },
    },
  ];
}

/**
 * The provider no longer waits for an answer. Idempotent: a request already answered, withdrawn
 * or ended with its turn stays as it is (the withdrawal can race our answer).
 */
export function withdrawRuntimeRequest(
  d: CommandData<"WithdrawRuntimeRequest">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const request = requireEntity(s.requests, d.requestId, "RuntimeRequest");
  if (request.status !== "pending") return [];
  return [
    {
      type: "RuntimeRequestWithdrawn",
      data: { requestId: request.id, reason: d.reason, at: meta.at },
    },
  ];
}

/** Answerable only while the request's runtime is live (E15). */
export function resolveRuntimeRequest(
  d: CommandData<"ResolveRuntimeRequest">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const request = requireEntity(s.requests, d.requestId, "RuntimeRequest");
  assertTransition("RuntimeRequest", request.status, "resolved", request.id);
  if (request.responseCapability.type !== "live") {
    throw new PreconditionFailedError(
      `request ${request.id} cannot be answered: ${request.responseCapability.reason}`,
    );
  }
  if (d.answers && request.kind !== "user_input") {
    throw new ValidationError("answers are only for user_input requests", [
      { path: "answers", message: `not allowed for kind ${request.kind}` },
    ]);
  }
  return [
    {
      type: "RuntimeRequestResolved",
      data: {
        requestId: request.id,
        decision: d.decision,
        answers: d.answers ?? null,
        at: meta.at,
      },
    },
  ];
}
