import type { PlanArtifact } from "../entities/plan-artifact.ts";
import { NotFoundError, PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { PlanId, RunId, ThreadId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";

/** A status change of an existing plan: the artifact again, with no new node or item. */
function planStatusEvent(plan: PlanArtifact, status: PlanArtifact["status"], at: string) {
  assertTransition("PlanArtifact", plan.status, status, plan.id);
  const event: ThreadEvent = {
    type: "PlanUpdated",
    data: { plan: { ...plan, status, updatedAt: at }, node: null, item: null, at },
  };
  return event;
}

/**
 * B5 "implement this plan": the run accepts an active proposed plan of its own thread. A plan
 * already accepted or superseded cannot be implemented again (the transition table says so).
 */
export function acceptPlan(
  s: ThreadState,
  ref: { threadId: ThreadId; planId: PlanId },
  runId: RunId,
  meta: CommandMeta,
): ThreadEvent {
  if (ref.threadId !== s.thread?.id) {
    throw new ValidationError(`plan ${ref.planId} is not a plan of thread ${s.thread?.id}`, [
      { path: "sourcePlanRef.threadId", message: "must be the thread the message is sent to" },
    ]);
  }
  const plan = s.plans.get(ref.planId);
  if (!plan) throw new NotFoundError("Plan", ref.planId);
  if (plan.kind !== "proposed_plan") {
    throw new ValidationError(`plan ${plan.id} is a ${plan.kind}, not a proposed plan`, [
      { path: "sourcePlanRef.planId", message: "must name a proposed plan" },
    ]);
  }
  if (plan.status !== "active") {
    throw new PreconditionFailedError(
      `plan ${plan.id} is ${plan.status}; only an active proposed plan can be implemented (run ${runId})`,
    );
  }
  return planStatusEvent(plan, "accepted", meta.at);
}

/** A new proposed plan replaces the thread's other active ones (E17: at most one is active). */
export function supersedeOtherPlans(
  s: ThreadState,
  newPlanId: PlanId,
  meta: CommandMeta,
): ThreadEvent[] {
  const events: ThreadEvent[] = [];
  for (const plan of s.plans.values()) {
    if (plan.id === newPlanId || plan.kind !== "proposed_plan" || plan.status !== "active") {
      continue;
    }
    events.push(planStatusEvent(plan, "superseded", meta.at));
  }
  return events;
}
