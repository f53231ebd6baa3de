import { describe, expect, it } from "vitest";
import type { CommandOf } from "../commands.ts";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function running() {
  const s = new ThreadScenario().create();
  const runId = s.queue();
  return { s, runId, ...s.start(runId) };
}

describe("UpdatePlan", () => {
  it("E17: a todo_list is one artifact, node and item, updated in place", () => {
    const { s, runId, providerTurnId } = running();
    const cmd = (status: "active" | "completed", done: boolean): CommandOf<"UpdatePlan"> => ({
      type: "UpdatePlan",
      data: {
        threadId: s.threadId,
        providerTurnId,
        planId: id("plan", "p"),
        nodeId: id("node", "plan"),
        kind: "todo_list",
        status,
        steps: [{ id: "1", text: "write tests", status: done ? "completed" : "running" }],
      },
    });
    const first = given(s.events)
      .when(cmd("active", false))
      .then([
        {
          type: "PlanUpdated",
          data: {
            plan: { kind: "todo_list", status: "active", runId },
            node: { kind: "todo_list" },
            item: {
              type: "plan",
              planId: id("plan", "p"),
              kind: "todo_list",
              planStatus: "active",
            },
          },
        },
      ]);
    const second = given([...s.events, ...first.events])
      .when(cmd("completed", true))
      .then([
        { type: "PlanUpdated", data: { node: null, item: null, plan: { status: "completed" } } },
      ]);
    const state = asThread(second.after);
    const items = [...state.turnItems.values()].filter((e) => e.item.type === "plan");
    expect(items).toHaveLength(1);
    expect(items[0]?.item).toMatchObject({
      planStatus: "completed",
      steps: [{ status: "completed" }],
    });
    expect(state.nodes.get(id("node", "plan"))?.status).toBe("completed");
  });

  it("rejects a kind change and a disallowed status change", () => {
    const { s, providerTurnId } = running();
    const data = {
      threadId: s.threadId,
      providerTurnId,
      planId: id("plan", "p"),
      nodeId: id("node", "plan"),
      kind: "proposed_plan",
      status: "completed",
      markdown: "# plan",
    } as const;
    s.exec({ type: "UpdatePlan", data });
    given(s.events)
      .when({ type: "UpdatePlan", data: { ...data, kind: "todo_list" } })
      .thenFails("validation");
    given(s.events)
      .when({ type: "UpdatePlan", data: { ...data, status: "draft" } })
      .thenFails("invalid_transition");
  });
});
