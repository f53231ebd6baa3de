import { ExecutionNode } from "../entities/execution-node.ts";
import { PlanArtifact } from "../entities/plan-artifact.ts";
import { RequestAnswers, RequestDecision, RuntimeRequest } from "../entities/runtime-request.ts";
import { ApprovalRequestItem } from "../entities/turn-item.ts";
import { RuntimeRequestId } from "../ids.ts";
import { defineEvent } from "./define.ts";

/** Request pending, its node waiting, the run waiting; `plan` holds user_input questions (E17). */
export const RuntimeRequestOpened = defineEvent("RuntimeRequestOpened", {
  request: RuntimeRequest,
  node: ExecutionNode,
  item: ApprovalRequestItem.nullable(),
  plan: PlanArtifact.nullable(),
});
export const RuntimeRequestResolved = defineEvent("RuntimeRequestResolved", {
  requestId: RuntimeRequestId,
  decision: RequestDecision,
  answers: RequestAnswers.nullable(),
});
