import { describe, expect, it } from "vitest";
import type { CommandOf } from "../commands.ts";
import type { PlanId } from "../ids.ts";
import { given } from "../testing/decider-spec.ts";
import { asThread, id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

/** A thread in plan mode whose first run proposed `planId` and completed. */
function proposed(planName = "p1") {
  const s = new ThreadScenario();
  s.exec({
    type: "CreateThread",
    data: {
      threadId: s.threadId,
      projectId: id("project", "p"),
      title: "Plans",
      defaultProvider: "claude",
      modelSelection: { model: "sonnet", effort: "high" },
      interactionMode: "plan",
    },
  });
  const runId = s.queue("plan it", "claude");
  const { providerTurnId } = s.start(runId);
  const planId = id("plan", planName);
  s.exec(proposePlan(s, providerTurnId, planId, `node_${planName}`));
  s.finish(providerTurnId);
  return { s, runId, planId };
}

function proposePlan(
  s: ThreadScenario,
  providerTurnId: ReturnType<ThreadScenario["start"]>["providerTurnId"],
  planId: PlanId,
  node: string,
): CommandOf<"UpdatePlan"> {
  return {
    type: "UpdatePlan",
    data: {
      threadId: s.threadId,
      providerTurnId,
      planId,
      nodeId: id("node", node),
      kind: "proposed_plan",
      status: "active",
      markdown: `# ${planId}`,
    },
  };
}

function implement(
  s: ThreadScenario,
  planId: PlanId,
  extra: Partial<CommandOf<"QueueRun">["data"]> = {},
) {
  const command: CommandOf<"QueueRun"> = {
    type: "QueueRun",
    data: {
      threadId: s.threadId,
      runId: id("run", "impl"),
      messageId: id("message", "impl"),
      text: "Implement the plan",
      provider: "codex",
      sourcePlanRef: { threadId: s.threadId, planId },
      ...extra,
    },
  };
  return command;
}

describe("B5 plan mode in the domain", () => {
  it("E1/B5: a run takes the thread's mode, model and effort; implementing a plan runs in default", () => {
    const { s } = proposed();
    const state = asThread(
      given(s.events)
        .when(implement(s, id("plan", "p1"), { provider: "claude" }))
        .then([{ type: "RunQueued" }, { type: "PlanUpdated" }]).after,
    );
    const run = state.runs.get(id("run", "impl"));
    expect(run).toMatchObject({ interactionMode: "default", model: "sonnet", effort: "high" });
    const first = [...state.runs.values()][0];
    expect(first).toMatchObject({ interactionMode: "plan", effort: "high" });
  });

  it("a run on another provider leaves the thread's effort behind; an explicit one is kept", () => {
    const { s } = proposed();
    const both = [{ type: "RunQueued" }, { type: "PlanUpdated" }] as const;
    const other = asThread(
      given(s.events)
        .when(implement(s, id("plan", "p1")))
        .then(both).after,
    );
    expect(other.runs.get(id("run", "impl"))).toMatchObject({ model: null, effort: null });
    const explicit = asThread(
      given(s.events)
        .when(implement(s, id("plan", "p1"), { effort: "low", interactionMode: "plan" }))
        .then(both).after,
    );
    expect(explicit.runs.get(id("run", "impl"))).toMatchObject({
      effort: "low",
      interactionMode: "plan",
    });
  });

  it("B5: implementing moves the plan active → accepted and records the plan on the run", () => {
    const { s, planId } = proposed();
    const result = given(s.events)
      .when(implement(s, planId))
      .then([
        { type: "RunQueued", data: { run: { sourcePlanRef: { threadId: s.threadId, planId } } } },
        {
          type: "PlanUpdated",
          data: { plan: { id: planId, status: "accepted" }, node: null, item: null },
        },
      ]);
    const state = asThread(result.after);
    expect(state.plans.get(planId)?.status).toBe("accepted");
    const item = [...state.turnItems.values()].find((e) => e.item.type === "plan")?.item;
    expect(item).toMatchObject({ planStatus: "accepted" });
  });

  it("B5: an accepted plan cannot be implemented again; nothing is appended", () => {
    const { s, planId } = proposed();
    s.exec(implement(s, planId));
    given(s.events)
      .when(implement(s, planId, { runId: id("run", "again"), messageId: id("message", "again") }))
      .thenFails("precondition_failed", /accepted/);
  });

  it("B5: an unknown plan, a todo list or another thread's plan is refused", () => {
    const { s } = proposed();
    given(s.events)
      .when(implement(s, id("plan", "nope")))
      .thenFails("not_found");
    given(s.events)
      .when(
        implement(s, id("plan", "p1"), {
          sourcePlanRef: { threadId: id("thread", "other"), planId: id("plan", "p1") },
        }),
      )
      .thenFails("validation");
    const runId = s.queue("todo", "claude");
    const { providerTurnId } = s.start(runId);
    s.exec({
      type: "UpdatePlan",
      data: {
        threadId: s.threadId,
        providerTurnId,
        planId: id("plan", "todo"),
        nodeId: id("node", "todo"),
        kind: "todo_list",
        status: "active",
        steps: [{ id: "1", text: "a", status: "pending" }],
      },
    });
    s.finish(providerTurnId);
    given(s.events)
      .when(implement(s, id("plan", "todo")))
      .thenFails("validation");
  });

  it("E17: a newer proposed plan supersedes the active one, which can then not be implemented", () => {
    const { s, planId } = proposed();
    const runId = s.queue("plan again", "claude");
    const { providerTurnId } = s.start(runId);
    const newer = id("plan", "p2");
    given(s.events)
      .when(proposePlan(s, providerTurnId, newer, "node_p2"))
      .then([
        { type: "PlanUpdated", data: { plan: { id: planId, status: "superseded" }, item: null } },
        { type: "PlanUpdated", data: { plan: { id: newer, status: "active" } } },
      ]);
    s.exec(proposePlan(s, providerTurnId, newer, "node_p2"));
    s.finish(providerTurnId);
    given(s.events)
      .when(implement(s, planId))
      .thenFails("precondition_failed", /superseded/);
    given(s.events)
      .when(implement(s, newer))
      .then([{ type: "RunQueued" }, { type: "PlanUpdated" }]);
  });

  it("E1: thread settings change the interaction mode and the effort", () => {
    const { s } = proposed();
    const state = asThread(
      given(s.events)
        .when({
          type: "UpdateThreadSettings",
          data: {
            threadId: s.threadId,
            interactionMode: "default",
            modelSelection: { model: "opus", effort: "max" },
          },
        })
        .then([{ type: "ThreadSettingsUpdated" }]).after,
    );
    expect(state.thread).toMatchObject({
      interactionMode: "default",
      modelSelection: { model: "opus", effort: "max" },
    });
  });
});
