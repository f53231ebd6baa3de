import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { id } from "../testing/fixtures.ts";
import { ThreadScenario } from "../testing/scenario.ts";

describe("DeleteThread / PurgeThread (issue 33)", () => {
  it("refuses a run in progress; cancels queued runs; then purges once, only when deleted", () => {
    const busy = new ThreadScenario().create();
    const active = busy.queue();
    busy.start(active);
    given(busy.events)
      .when({ type: "DeleteThread", data: { threadId: busy.threadId } })
      .thenFails("conflict", /run in progress: interrupt it/);

    const s = new ThreadScenario().create();
    s.completedRun();
    const queued = s.queue();
    const purge = {
      type: "PurgeThread" as const,
      data: { threadId: s.threadId, worktreePath: null, refsDeleted: 2 },
    };
    given(s.events)
      .when(purge)
      .thenFails("precondition_failed", /not deleted/);
    const { events, after } = given(s.events)
      .when({ type: "DeleteThread", data: { threadId: s.threadId } })
      .then([{ type: "RunCancelled", data: { runId: queued } }, { type: "ThreadDeleted" }]);
    if (after.kind !== "thread") throw new Error("thread state expected");
    expect(after.thread?.deletedAt).not.toBeNull();
    const deleted = [...s.events, ...events];
    given(deleted)
      .when({ type: "DeleteThread", data: { threadId: s.threadId } })
      .thenFails("precondition_failed", /already deleted/);
    given(deleted)
      .when({
        type: "QueueRun",
        data: {
          threadId: s.threadId,
          runId: id("run", "x"),
          messageId: id("message", "x"),
          text: "hi",
          provider: "codex",
        },
      })
      .thenFails("precondition_failed", /deleted/);
    const { events: purged } = given(deleted)
      .when(purge)
      .then([{ type: "ThreadPurged", data: { refsDeleted: 2 } }]);
    given([...deleted, ...purged])
      .when(purge)
      .thenFails("precondition_failed", /already purged/);
  });
});
