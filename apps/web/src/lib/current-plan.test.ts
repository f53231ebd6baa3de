import { describe, expect, it } from "vitest";
import { currentTodoList, type Plan } from "./current-plan.ts";

const plan = (id: string, kind: Plan["kind"], status: Plan["status"]) =>
  ({ id, kind, status, steps: [] }) as unknown as Plan;

describe("currentTodoList (E17 in thread detail)", () => {
  it("is the newest todo list while it is in force; none once it is completed", () => {
    const older = plan("p1", "todo_list", "superseded");
    const live = plan("p2", "todo_list", "active");
    const question = plan("p3", "questions", "active");
    expect(currentTodoList([older, live, question])?.id).toBe("p2");
    expect(currentTodoList([older, plan("p4", "todo_list", "completed")])).toBeNull();
    expect(currentTodoList([question, plan("p5", "proposed_plan", "active")])).toBeNull();
    expect(currentTodoList([])).toBeNull();
  });
});
