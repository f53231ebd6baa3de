import type { PlanArtifact } from "../../entities/plan-artifact.ts";
import type { EventData } from "../../events.ts";
import type { NodeId } from "../../ids.ts";
import {
  addItem,
  finishNode,
  patchSubjectItem,
  putNode,
  putPlan,
  putRequest,
  putRun,
  touchShell,
} from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";
import { forgetPending, pendingCount } from "./shared.ts";

export function onRuntimeRequestOpened(s: ThreadState, d: EventData<"RuntimeRequestOpened">): void {
  const request = d.request;
  putRequest(s, request);
  putNode(s, d.node);
  if (d.item) addItem(s, d.item, d.node.id);
  if (d.plan) putPlan(s, d.plan);
  s.pendingRequestIds.add(request.id);
  const run = request.runId ? s.runs.get(request.runId) : undefined;
  if (run) {
    s.pendingRequestsByRun.set(run.id, pendingCount(s, run.id) + 1);
    const turn = request.providerTurnId ? s.providerTurns.get(request.providerTurnId) : undefined;
    const fromActiveAttempt = turn?.runAttemptId === run.activeAttemptId;
    if (run.status === "running" && fromActiveAttempt) putRun(s, { ...run, status: "waiting" });
  }
  touchShell(s, d.at);
}

export function onRuntimeRequestResolved(
  s: ThreadState,
  d: EventData<"RuntimeRequestResolved">,
): void {
  const request = s.requests.get(d.requestId);
  if (!request) return;
  putRequest(s, {
    ...request,
    status: "resolved",
    decision: d.decision,
    answers: d.answers,
    resolvedAt: d.at,
  });
  forgetPending(s, request);
  const node = s.nodes.get(request.nodeId);
  if (node) putNode(s, { ...node, status: "completed", completedAt: d.at });
  const itemStatus =
    d.decision === "decline" ? "declined" : d.decision === "cancel" ? "cancelled" : "completed";
  patchSubjectItem(s, request.nodeId, (item) =>
    item.type === "approval_request"
      ? { ...item, status: itemStatus, decision: d.decision, updatedAt: d.at }
      : item,
  );
  for (const plan of questionPlansOf(s, request.nodeId)) {
    putPlan(s, { ...plan, status: "completed", updatedAt: d.at });
  }
  const run = request.runId ? s.runs.get(request.runId) : undefined;
  if (run?.status === "waiting" && pendingCount(s, run.id) === 0) {
    putRun(s, { ...run, status: "running" });
  }
  touchShell(s, d.at);
}

export function onRuntimeRequestWithdrawn(
  s: ThreadState,
  d: EventData<"RuntimeRequestWithdrawn">,
): void {
  const request = s.requests.get(d.requestId);
  if (request?.status !== "pending") return;
  putRequest(s, {
    ...request,
    status: "cancelled",
    responseCapability: { type: "not_resumable", reason: d.reason },
    resolvedAt: d.at,
  });
  if (s.pendingRequestIds.has(request.id)) forgetPending(s, request);
  finishNode(s, request.nodeId, "cancelled", "cancelled", d.at);
  for (const plan of questionPlansOf(s, request.nodeId)) {
    putPlan(s, { ...plan, status: "superseded", updatedAt: d.at });
  }
  const run = request.runId ? s.runs.get(request.runId) : undefined;
  if (run?.status === "waiting" && pendingCount(s, run.id) === 0) {
    putRun(s, { ...run, status: "running" });
  }
  touchShell(s, d.at);
}

function questionPlansOf(s: ThreadState, nodeId: NodeId): PlanArtifact[] {
  const planId = s.planByNode.get(nodeId);
  const plan = planId ? s.plans.get(planId) : undefined;
  return plan?.kind === "questions" ? [plan] : [];
}
