import { describe, expect, it } from "vitest";
import { id } from "../testing/fixtures.ts";
import { detailFromRows, incrementalRows } from "../testing/rows.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { conversationRunNumber, turnsThrough, withAsideOrdinal } from "./run-number.ts";

/** A whole compaction run (`/compact`): queued with `compact`, started, its turn completed. */
function compaction(s: ThreadScenario) {
  const runId = s.ids.next("run");
  s.exec({
    type: "QueueRun",
    data: {
      threadId: s.threadId,
      runId,
      messageId: s.ids.next("message"),
      text: "",
      provider: "codex",
      compact: true,
    },
  });
  s.finish(s.start(runId).providerTurnId);
  return runId;
}

const numbers = (s: ThreadScenario) =>
  detailFromRows(incrementalRows(s.events), s.threadId).runs.map((r) => [
    r.ordinal,
    r.conversationNumber,
  ]);

describe("E3: run numbers count conversation runs only", () => {
  it("E3: aside ordinals merge into ranges; a turn's number skips the aside runs before it", () => {
    let ranges = withAsideOrdinal([], 1);
    ranges = withAsideOrdinal(ranges, 2);
    ranges = withAsideOrdinal(ranges, 5);
    ranges = withAsideOrdinal(ranges, 5); // the same ordinal twice changes nothing
    expect(ranges).toEqual([
      { from: 1, to: 2 },
      { from: 5, to: 5 },
    ]);
    expect([3, 4, 6].map((o) => conversationRunNumber(o, ranges, 0))).toEqual([1, 2, 3]);
    expect(conversationRunNumber(5, ranges, 0)).toBeNull();
    expect(conversationRunNumber(6, ranges, 10)).toBe(13);
    // At an aside run, the turns so far ("after run N").
    expect(turnsThrough(5, ranges)).toBe(2);
    expect(turnsThrough(2, ranges)).toBe(0);
    expect(conversationRunNumber(4, undefined, 0)).toBe(4);
  });

  it("E3: a compaction run takes no number; the next message is run 2, not 3", () => {
    const s = new ThreadScenario("cmp").create("codex", "Main");
    s.completedRun("one");
    compaction(s);
    s.completedRun("two");
    expect(numbers(s)).toEqual([
      [1, 1],
      [2, null],
      [3, 2],
    ]);
    const detail = detailFromRows(incrementalRows(s.events), s.threadId);
    expect(detail.thread.asideRuns).toEqual([{ from: 2, to: 2 }]);
    expect(detail.thread.runCount).toBe(2);
  });

  it("E3: a shell row from before asideRuns existed: the window's own runs still number the turns", () => {
    const s = new ThreadScenario("old").create("codex", "Main");
    s.completedRun("one");
    compaction(s);
    s.completedRun("two");
    const rows = incrementalRows(s.events);
    for (const row of rows.values()) {
      if (row.table === "threads") delete (row.data as { asideRuns?: unknown }).asideRuns;
    }
    const detail = detailFromRows(rows, s.threadId);
    expect(detail.thread.asideRuns).toBeUndefined();
    expect(detail.runs.map((r) => r.conversationNumber)).toEqual([1, null, 2]);
  });

  it("E3: imported runs of an adopted session take no number; the first run Skein makes is run 1", () => {
    const s = new ThreadScenario("adopted");
    s.exec({
      type: "AdoptThread",
      data: {
        threadId: s.threadId,
        projectId: id("project", "p"),
        title: "fix",
        provider: "codex",
        providerThreadId: id("providerThread", "pa"),
        nativeThreadRef: "native-1",
        turns: [
          { nativeTurnRef: "t1", userText: "one", assistantText: "ok" },
          { nativeTurnRef: "t2", userText: "two", assistantText: "ok" },
        ],
      },
    });
    s.completedRun("three");
    expect(numbers(s)).toEqual([
      [1, null],
      [2, null],
      [3, 1],
    ]);
  });

  it("E3: a fork made after a compaction counts on from the source's turns, in its offset and title", () => {
    const src = new ThreadScenario("src").create("codex", "Main");
    src.completedRun("one");
    compaction(src);
    src.completedRun("two");
    const fork = new ThreadScenario("fork").forkOf(src);
    const forked = fork.events.find((e) => e.type === "ThreadForked");
    if (forked?.type !== "ThreadForked") throw new Error("ThreadForked expected");
    expect(forked.data.inheritance.sourceRunOrdinal).toBe(3);
    expect(forked.data.inheritance.runOffset).toBe(2);
    expect(forked.data.thread.title).toBe("fork of Main at run 2");
    fork.completedRun("three");
    compaction(fork);
    fork.completedRun("four");
    expect(numbers(fork)).toEqual([
      [1, 3],
      [2, null],
      [3, 4],
    ]);
  });
});
