import { z } from "zod";
import { NodeId, PlanId, RunId, ThreadId } from "../ids.ts";
import { IsoTimestamp } from "./common.ts";

export const PlanKind = z.enum(["proposed_plan", "todo_list", "questions"]);
export type PlanKind = z.infer<typeof PlanKind>;

/**
 * `accepted`: a proposed plan someone chose to implement (`sourcePlanRef`); `superseded`: a newer
 * proposed plan of the same thread replaced it before that.
 */
export const PlanStatus = z.enum(["draft", "active", "accepted", "completed", "superseded"]);
export type PlanStatus = z.infer<typeof PlanStatus>;

export const PlanStep = z.object({
  id: z.string().min(1),
  text: z.string(),
  status: z.enum(["pending", "running", "completed"]),
});
export type PlanStep = z.infer<typeof PlanStep>;

export const UserInputQuestion = z.object({
  id: z.string().min(1),
  header: z.string().nullable(),
  question: z.string().min(1),
  options: z.array(z.object({ label: z.string().min(1), description: z.string().nullable() })),
  multiSelect: z.boolean(),
});
export type UserInputQuestion = z.infer<typeof UserInputQuestion>;

/** E17: Codex `turn/plan/updated` → todo_list; plan-mode final plan → proposed_plan. */
export const PlanArtifact = z.object({
  id: PlanId,
  threadId: ThreadId,
  runId: RunId.nullable(),
  nodeId: NodeId,
  kind: PlanKind,
  status: PlanStatus,
  markdown: z.string().optional(),
  steps: z.array(PlanStep).optional(),
  questions: z.array(UserInputQuestion).optional(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type PlanArtifact = z.infer<typeof PlanArtifact>;
