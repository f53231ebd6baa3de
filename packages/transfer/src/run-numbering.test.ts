import { describe, expect, it } from "vitest";
import { buildHandoff } from "./build-handoff.ts";
import { answerHistory } from "./history/answer-history.ts";
import { HistoryCallError } from "./history/history-call.ts";
import { forkOf } from "./run-start/run-start-fixtures.ts";
import { gatherTransferInputs } from "./run-start/start-inputs.ts";
import { runs, turnItemsFor } from "./test-support/fixtures.ts";

// A fork made at run 2 of thr_main: its own runs 1 and 2 are runs 3 and 4 to a person (the UI
// counts on from the inherited runs), and the handoff text says so too.
const source = runs({ from: 1, to: 2, provider: "codex", providerThreadId: "pth_S" });
const own = runs({
  threadId: "thr_fork",
  from: 1,
  to: 2,
  provider: "claude",
  providerThreadId: "pth_F",
});
const all = [...source, ...own];
const selection = [
  { threadId: "thr_main", ordinals: [1, 2] },
  { threadId: "thr_fork", ordinals: [1, 2] },
];
const runOffsets = new Map([
  ["thr_main", 0],
  ["thr_fork", 2],
]);
const forkHandoff = (offsets?: ReadonlyMap<string, number>) =>
  buildHandoff({
    strategy: "full_thread_summary",
    transfer: {
      id: "ctx_switch",
      type: "provider_handoff",
      sourceThreadId: "thr_fork",
      targetThreadId: "thr_fork",
    },
    selection,
    runs: all,
    turnItems: turnItemsFor(all),
    targetProvider: "codex",
    ...(offsets ? { runOffsets: offsets } : {}),
  });

describe("B16: one run numbering in handoff texts", () => {
  it("B16: one run numbering: a fork's own runs are numbered on from the runs it inherited, in every line of the text", () => {
    const { summaryText, payload } = forkHandoff(runOffsets);
    expect(summaryText).toContain("covers: runs 1–2 of thread 1; runs 3–4 of thread 2");
    expect(summaryText).toContain("providers: codex thread 1 runs 1–2; claude thread 2 runs 3–4");
    expect(summaryText).toContain("## thread 2 run 3 · claude · completed");
    expect(summaryText).toContain("[thread 2 run 4 · user] user asks thr_fork#2");
    expect(summaryText).toContain("[thread 1 run 2 · user] user asks thr_main#2");
    expect(summaryText).not.toMatch(/thread 2 runs? [12]\b/);
    // The payload keeps each thread's own ordinals: it is the record, not the reading.
    expect(payload.coverage).toEqual([
      { threadId: "thr_main", runs: [{ from: 1, to: 2 }] },
      { threadId: "thr_fork", runs: [{ from: 1, to: 2 }] },
    ]);
  });

  it("without offsets every thread counts from 1, as before", () => {
    expect(forkHandoff().summaryText).toContain(
      "covers: runs 1–2 of thread 1; runs 1–2 of thread 2",
    );
  });

  it("B16: a checkpoint summary of a fork says the run it follows by the same number", () => {
    const build = buildHandoff({
      strategy: "checkpoint_summary",
      transfer: {
        id: "ctx_cp",
        type: "provider_handoff",
        sourceThreadId: "thr_fork",
        targetThreadId: "thr_fork",
      },
      selection: [{ threadId: "thr_fork", ordinals: [1, 2] }],
      runs: own,
      turnItems: turnItemsFor(own),
      runOffsets,
      checkpoint: {
        id: "ckp_f",
        runId: own[1]?.id ?? null,
        appRunOrdinal: 2,
        ref: "abc",
        status: "ready",
      },
    });
    expect(build.summaryText).toContain("checkpoint: after run 4 · ready");
    expect(build.summaryText).toContain("covers: runs 3–4");
  });

  it("B16: skein_history names and reads runs by the numbers the handoff text gave them", () => {
    const coverage = { selection, runs: all, turnItems: turnItemsFor(all), runOffsets };
    expect(answerHistory({ op: "read", run: 3, thread: 2 }, coverage)).toMatch(
      /^thread 2 run 3 · claude · completed\n\[the person\] user asks thr_fork#1/,
    );
    expect(() => answerHistory({ op: "read", run: 1, thread: 2 }, coverage)).toThrow(
      new HistoryCallError(
        "thread 2 run 1 is not covered by this handoff (covered: thread 1 runs 1–2; thread 2 runs 3–4)",
      ),
    );
    expect(answerHistory({ op: "search", query: "thr_fork#2" }, coverage)).toContain(
      "- thread 2 run 4 · the person: user asks thr_fork#2",
    );
  });

  it("B16: the gathered inputs carry each thread's offset: a fork at run 1 counts from 2", async () => {
    const { src, fork } = forkOf("claude");
    const threads = new Map([[src.threadId, src.state]]);
    const inputs = await gatherTransferInputs(fork.state, async (id) => threads.get(id)!);
    expect(inputs.runOffsets.get(fork.threadId)).toBe(1);
    expect(inputs.runOffsets.get(src.threadId)).toBe(0);
  });

  it("E3: an older fork without a recorded offset counts only the turns of its source, not its compaction run", async () => {
    const { src, fork } = forkOf("claude");
    const inheritance = fork.state.inheritance;
    if (!inheritance) throw new Error("fork inheritance expected");
    // Source runs 1 and 3 were turns, run 2 a compaction; the fork was taken at run 3.
    const source = { ...src.state, asideRuns: [{ from: 2, to: 2 }] };
    const old = {
      ...fork.state,
      inheritance: { ...inheritance, sourceRunOrdinal: 3, runOffset: undefined },
    };
    const threads = new Map([[src.threadId, source]]);
    const inputs = await gatherTransferInputs(old, async (id) => threads.get(id)!);
    expect(inputs.runOffsets.get(fork.threadId)).toBe(2);
  });
});

describe("E3: a thread's own compaction run takes no number in handoff texts and skein_history", () => {
  // thr_main: run 1 a turn, run 2 a compaction (the provider only shrank its context), run 3 a
  // turn — the UI shows Run 1, Compaction, Run 2.
  const main = runs({ from: 1, to: 3, provider: "codex", providerThreadId: "pth_S" });
  const items = turnItemsFor(main).map((item) =>
    item.runOrdinal === 2 && item.type === "command_execution"
      ? { ...item, id: "itm_compaction", type: "compaction" as const, status: "completed" as const }
      : item,
  );
  const mainSelection = [{ threadId: "thr_main", ordinals: [1, 2, 3] }];
  const asideRuns = new Map([["thr_main", [{ from: 2, to: 2 }]]]);
  const build = (aside?: typeof asideRuns) =>
    buildHandoff({
      strategy: "full_thread_summary",
      transfer: {
        id: "ctx_switch",
        type: "provider_handoff",
        sourceThreadId: "thr_main",
        targetThreadId: "thr_main",
      },
      selection: mainSelection,
      runs: main,
      turnItems: items,
      targetProvider: "claude",
      ...(aside ? { asideRuns: aside } : {}),
    });

  it("E3: the handoff text numbers the turns 1 and 2 and names the compaction by the turn it follows", () => {
    const { summaryText } = build(asideRuns);
    expect(summaryText).toContain("covers: runs 1–2");
    expect(summaryText).toContain("## run 1 · codex · completed");
    expect(summaryText).toContain("## compaction after run 1 · codex · completed");
    expect(summaryText).toContain("## run 2 · codex · completed");
    expect(summaryText).toContain("[run 2 · user] user asks thr_main#3");
    expect(summaryText).not.toContain("run 3");
    // Without the thread's record of its compaction runs, every run is numbered by ordinal.
    expect(build().summaryText).toContain("[run 3 · user] user asks thr_main#3");
  });

  it("E3: skein_history reads run 2 as the text's run 2 (ordinal 3) and refuses run 3", () => {
    const coverage = { selection: mainSelection, runs: main, turnItems: items, asideRuns };
    expect(answerHistory({ op: "read", run: 2 }, coverage)).toMatch(
      /^run 2 · codex · completed\n\[the person\] user asks thr_main#3/,
    );
    expect(() => answerHistory({ op: "read", run: 3 }, coverage)).toThrow(
      new HistoryCallError("run 3 is not covered by this handoff (covered: runs 1–2)"),
    );
    expect(answerHistory({ op: "search", query: "thr_main#2" }, coverage)).toContain(
      "- compaction after run 1 · the person: user asks thr_main#2",
    );
  });

  it("E3: the gathered inputs carry each thread's own record of its runs that are not turns", async () => {
    const { src, fork } = forkOf("claude");
    const source = { ...src.state, asideRuns: [{ from: 2, to: 2 }] };
    const threads = new Map([[src.threadId, source]]);
    const inputs = await gatherTransferInputs(fork.state, async (id) => threads.get(id)!);
    expect(inputs.asideRuns.get(src.threadId)).toEqual([{ from: 2, to: 2 }]);
    expect(inputs.asideRuns.get(fork.threadId)).toEqual([]);
  });
});
