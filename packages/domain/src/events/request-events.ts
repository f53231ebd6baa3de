import { z } from "zod";
import { RawLogRef } from "../entities/common.ts";
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
  /** B8: the raw provider frame (the provider's callback) the request came from. */
  rawEventId: RawLogRef.optional(),
});
export const RuntimeRequestResolved = defineEvent("RuntimeRequestResolved", {
  requestId: RuntimeRequestId,
  decision: RequestDecision,
  answers: RequestAnswers.nullable(),
});
/** Cancelled at once, no longer answerable, with why (E15 `not_resumable`). */
export const RuntimeRequestWithdrawn = defineEvent("RuntimeRequestWithdrawn", {
  requestId: RuntimeRequestId,
  reason: z.string().min(1),
});
