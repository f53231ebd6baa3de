import { describe, expect, it } from "vitest";
import { nextQueuedRun } from "../state/thread-state.ts";
import { given } from "../testing/decider-spec.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { waitingRuns } from "./queue.ts";

/** A running first message and two waiting behind it. */
function queueOfTwo() {
  const s = new ThreadScenario().create();
  const first = s.queue("first");
  s.start(first);
  const a = s.queue("message a");
  const b = s.queue("message b");
  return { s, first, a, b };
}

const userTexts = (s: ThreadScenario) =>
  [...s.state.turnItems.values()].flatMap(({ item }) =>
    item.type === "user_message" ? [`${item.runOrdinal}:${item.text}`] : [],
  );

describe("EditQueuedMessage (B20)", () => {
  it("changes a waiting message and its item; a started one is CONFLICT", () => {
    const { s, first, a } = queueOfTwo();
    const { after } = given(s.events)
      .when({ type: "EditQueuedMessage", data: { threadId: s.threadId, runId: a, text: "edited" } })
      .then([{ type: "QueuedMessageEdited", data: { runId: a, text: "edited" } }]);
    if (after.kind !== "thread") throw new Error("not a thread");
    const run = after.runs.get(a)!;
    expect(after.messages.get(run.userMessageId)?.text).toBe("edited");
    const item = [...after.turnItems.values()].find((e) => e.item.runId === a)?.item;
    expect(item).toMatchObject({ type: "user_message", text: "edited" });
    given(s.events)
      .when({ type: "EditQueuedMessage", data: { threadId: s.threadId, runId: first, text: "x" } })
      .thenFails("conflict", /message 1 is running; it can no longer be edited/);
  });
});

describe("ReorderQueue (B20)", () => {
  it("starts the waiting runs in the new order, ordinals and items following it", () => {
    const { s, a, b } = queueOfTwo();
    expect(userTexts(s)).toEqual(["1:first", "2:message a", "3:message b"]);
    s.exec({ type: "ReorderQueue", data: { threadId: s.threadId, runIds: [b, a] } });
    expect(s.state.runs.get(b)?.ordinal).toBe(2);
    expect(s.state.runs.get(a)?.ordinal).toBe(3);
    expect(s.state.runOrder.map((runId) => s.state.runs.get(runId)?.ordinal)).toEqual([1, 2, 3]);
    expect(userTexts(s)).toEqual(["1:first", "2:message b", "3:message a"]);
    expect(waitingRuns(s.state).map((run) => run.id)).toEqual([b, a]);
    // The dispatcher follows the new order once the running message ends.
    expect(nextQueuedRun(s.state)?.id).toBe(b);
  });

  it("is CONFLICT when the queue changed or names a started run", () => {
    const { s, first, a, b } = queueOfTwo();
    given(s.events)
      .when({ type: "ReorderQueue", data: { threadId: s.threadId, runIds: [b] } })
      .thenFails("conflict", /the queue changed: 2 message\(s\) wait now/);
    given(s.events)
      .when({ type: "ReorderQueue", data: { threadId: s.threadId, runIds: [b, a, a] } })
      .thenFails("conflict", /the queue changed/);
    given(s.events)
      .when({ type: "ReorderQueue", data: { threadId: s.threadId, runIds: [b, first, a] } })
      .thenFails("conflict", /message 1 is running; it can no longer be moved/);
  });

  it("a withdrawn message leaves the queue and cannot be edited", () => {
    const { s, a, b } = queueOfTwo();
    s.exec({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId: a } });
    expect(waitingRuns(s.state).map((run) => run.id)).toEqual([b]);
    given(s.events)
      .when({ type: "EditQueuedMessage", data: { threadId: s.threadId, runId: a, text: "x" } })
      .thenFails("conflict", /message 2 is cancelled; it can no longer be edited/);
  });
});
