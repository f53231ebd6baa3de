import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { id, readThreads } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

/** A parent thread and a sub-agent child thread under it (T9). */
function subagentChild() {
  const parent = new ThreadScenario("parent").create();
  const child = new ThreadScenario("child");
  child.context = readThreads(parent.state);
  child.exec({
    type: "CreateThread",
    data: {
      threadId: child.threadId,
      projectId: id("project", "p"),
      title: "Sub-agent: helper",
      defaultProvider: "codex",
      parentThreadId: parent.threadId,
    },
  });
  return { parent, child };
}

describe("PromoteThread (T9, E9)", () => {
  it("T9: a sub-agent's child thread becomes a root thread of its own, its runs kept", () => {
    const { parent, child } = subagentChild();
    const runId = child.completedRun().runId;
    const { after } = given(child.events)
      .when({ type: "PromoteThread", data: { threadId: child.threadId } })
      .then([
        {
          type: "ThreadPromoted",
          data: { threadId: child.threadId, formerParentThreadId: parent.threadId },
        },
      ]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.thread?.lineage).toEqual({
      parentThreadId: null,
      relationshipToParent: null,
      rootThreadId: child.threadId,
    });
    expect(after.runs.get(runId)?.status).toBe("completed");
  });

  it("T9: refuses a thread that is not a sub-agent child, twice, a running child and an unknown one", () => {
    const root = new ThreadScenario("root").create();
    given(root.events)
      .when({ type: "PromoteThread", data: { threadId: root.threadId } })
      .thenFails("conflict", /not a sub-agent's child thread/);

    const { child } = subagentChild();
    const { events } = given(child.events)
      .when({ type: "PromoteThread", data: { threadId: child.threadId } })
      .then([{ type: "ThreadPromoted" }]);
    given([...child.events, ...events])
      .when({ type: "PromoteThread", data: { threadId: child.threadId } })
      .thenFails("conflict", /not a sub-agent's child thread/);

    const busy = subagentChild().child;
    busy.start(busy.queue());
    given(busy.events)
      .when({ type: "PromoteThread", data: { threadId: busy.threadId } })
      .thenFails("conflict", /run in progress/);

    given()
      .when({ type: "PromoteThread", data: { threadId: id("thread", "ghost") } })
      .thenFails("not_found");
  });
});

describe("the sub-agent → child thread link (T9, E8)", () => {
  it("T9: a nested sub-agent thread records and later changes the child thread following it", () => {
    const s = new ThreadScenario().create();
    const { rootNodeId } = s.start(s.queue());
    const nested = id("providerThread", "nested");
    const { events, after } = given(s.events)
      .when({
        type: "RecordProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: nested,
          provider: "codex",
          ownerNodeId: rootNodeId,
          childThreadId: id("thread", "child1"),
          nativeThreadRef: "agent-1",
        },
      })
      .then([
        {
          type: "ProviderThreadRecorded",
          data: {
            providerThread: { ownerNodeId: rootNodeId, childThreadId: id("thread", "child1") },
          },
        },
      ]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.providerThreads.get(nested)?.childThreadId).toBe(id("thread", "child1"));
    const { after: moved } = given([...s.events, ...events])
      .when({
        type: "UpdateProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: nested,
          childThreadId: id("thread", "child2"),
        },
      })
      .then([
        {
          type: "ProviderThreadUpdated",
          data: { changes: { childThreadId: id("thread", "child2") } },
        },
      ]);
    if (moved.kind !== "thread") throw new Error("thread state expected");
    expect(moved.providerThreads.get(nested)?.childThreadId).toBe(id("thread", "child2"));
  });

  it("T9: only a nested provider thread has a child thread", () => {
    const s = new ThreadScenario().create();
    const own = s.providerThread();
    given(s.events)
      .when({
        type: "RecordProviderThread",
        data: {
          threadId: s.threadId,
          providerThreadId: id("providerThread", "x"),
          provider: "codex",
          childThreadId: id("thread", "child1"),
        },
      })
      .thenFails("validation", /nested under a node/);
    given(s.events)
      .when({
        type: "UpdateProviderThread",
        data: { threadId: s.threadId, providerThreadId: own, childThreadId: id("thread", "c") },
      })
      .thenFails("validation", /nested under a node/);
  });
});
