import type { PlanArtifact, UserInputQuestion } from "../entities/plan-artifact.ts";
import type { RuntimeRequest } from "../entities/runtime-request.ts";
import type { ProjectionRow } from "./projection-write.ts";

/**
 * A pending request as a person answers it: `answerable` only while its runtime is live (E15),
 * and, for user_input, the questions (E17) whose ids key the answers `request.respond` takes.
 */
export type PendingRequestView = RuntimeRequest & {
  answerable: boolean;
  questions: UserInputQuestion[];
};

/**
 * P5: actionable requests, oldest first. `plans` may hold any plan rows; the `questions` plan
 * recorded on a user_input request's node supplies its questions.
 */
export function assemblePendingRequests(
  rows: readonly ProjectionRow<RuntimeRequest>[],
  plans: readonly ProjectionRow<PlanArtifact>[] = [],
): PendingRequestView[] {
  const questionsByNode = new Map<string, UserInputQuestion[]>();
  for (const { data: plan } of plans) {
    if (plan.kind === "questions") questionsByNode.set(plan.nodeId, plan.questions ?? []);
  }
  return rows
    .map((row) => row.data)
    .filter((r) => r.status === "pending")
    .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id))
    .map((r) => ({
      ...r,
      answerable: r.responseCapability.type === "live",
      questions: questionsByNode.get(r.nodeId) ?? [],
    }));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
