import { describe, expect, it } from "vitest";
import type { TurnItem } from "../entities/turn-item.ts";
import { id } from "../testing/fixtures.ts";
import { richScenario } from "../testing/rich-scenario.ts";
import { detailFromRows, incrementalRows, tableRows } from "../testing/rows.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { collectInheritedTurnItems, isInheritedRow } from "./visible-turn-items.ts";

describe("visibleTurnItems for forks (P7)", () => {
  it("P7: source items by reference, then the fork marker, then the fork's own items — no rows copied", () => {
    const src = new ThreadScenario("src").create();
    src.completedRun("one", { checkpoint: true });
    src.completedRun("two", { checkpoint: true });
    const fork = new ThreadScenario("fork").forkOf(src, {
      type: "run",
      runId: src.state.runOrder[0] ?? id("run", "x"),
    });
    fork.completedRun("fork one", { provider: "claude" });
    src.completedRun("three after fork");

    const rows = incrementalRows(src.events);
    incrementalRows(fork.events, rows);
    const sourceRowCount = tableRows(rows, "turn_items", src.threadId).length;
    const forkOwn = tableRows<TurnItem>(rows, "turn_items", fork.threadId);
    expect(forkOwn.map((r) => r.data.type)).toEqual(["fork", "user_message", "assistant_message"]);

    const inheritance = fork.state.inheritance;
    if (!inheritance) throw new Error("fork has no inheritance");
    const inherited = collectInheritedTurnItems(inheritance, (threadId) =>
      threadId === src.threadId
        ? { inheritance: null, rows: tableRows<TurnItem>(rows, "turn_items", src.threadId) }
        : undefined,
    );
    const detail = detailFromRows(rows, fork.threadId, inherited);
    expect(
      (detail.visibleTurnItems ?? []).map((i) => [
        i.threadId === src.threadId ? "src" : "fork",
        i.type,
        i.runOrdinal,
      ]),
    ).toEqual([
      ["src", "user_message", 1],
      ["src", "assistant_message", 1],
      ["src", "checkpoint", 1],
      ["fork", "fork", null],
      ["fork", "user_message", 1],
      ["fork", "assistant_message", 1],
    ]);
    // Inherited items are the source's own rows (same objects), and storage did not grow.
    const sourceItems = new Set(
      tableRows<TurnItem>(rows, "turn_items", src.threadId).map((r) => r.data),
    );
    expect(inherited.every((item) => sourceItems.has(item))).toBe(true);
    expect(tableRows(rows, "turn_items", src.threadId)).toHaveLength(sourceRowCount);
    expect(tableRows(rows, "turn_items")).toHaveLength(sourceRowCount + forkOwn.length);
  });

  it("P7: forks of forks recurse through each inheritance; rolled-back source runs stay out", () => {
    const rich = richScenario();
    const f2 = new ThreadScenario("f2").forkOf(rich.fork);
    const rows = incrementalRows(rich.s.events);
    incrementalRows(rich.fork.events, rows);
    incrementalRows(f2.events, rows);
    const states = new Map([
      [rich.s.threadId as string, rich.s.state],
      [rich.fork.threadId as string, rich.fork.state],
    ]);
    const load = (threadId: string) => {
      const state = states.get(threadId);
      return state
        ? {
            inheritance: state.inheritance,
            rows: tableRows<TurnItem>(rows, "turn_items", threadId),
          }
        : undefined;
    };
    const inheritance = f2.state.inheritance;
    if (!inheritance) throw new Error("no inheritance");
    const visible =
      detailFromRows(rows, f2.threadId, collectInheritedTurnItems(inheritance, load))
        .visibleTurnItems ?? [];
    const runsOfRoot = visible
      .filter((i) => i.threadId === rich.s.threadId)
      .map((i) => i.runOrdinal);
    expect(runsOfRoot).not.toContain(2);
    expect(runsOfRoot).not.toContain(3);
    expect(runsOfRoot).toContain(4);
    const markers = visible.filter((i) => i.type === "fork").map((i) => i.threadId);
    expect(markers).toEqual([rich.fork.threadId, f2.threadId]);
    expect(visible.at(-1)?.type).toBe("fork");
    expect(
      visible
        .filter((i) => i.threadId === rich.fork.threadId && i.type !== "fork")
        .map((i) => i.runOrdinal),
    ).toEqual([1, 1]);
  });

  it("isInheritedRow applies the cutoff, the run ordinal and the exclusions", () => {
    const inheritance = {
      transferId: id("transfer", "t"),
      sourceThreadId: id("thread", "s"),
      sourcePoint: {
        threadId: id("thread", "s"),
        runId: null,
        checkpointId: null,
        turnItemId: null,
        providerThreadRef: null,
        providerTurnRef: null,
      },
      relationship: "fork" as const,
      cutoffSortKey: 10,
      sourceRunOrdinal: 3,
      excludedRunOrdinals: [2],
      forkItemId: id("item", "f"),
    };
    expect(isInheritedRow({ sortKey: 10, runOrdinal: 3 }, inheritance)).toBe(true);
    expect(isInheritedRow({ sortKey: 11, runOrdinal: 1 }, inheritance)).toBe(false);
    expect(isInheritedRow({ sortKey: 5, runOrdinal: 4 }, inheritance)).toBe(false);
    expect(isInheritedRow({ sortKey: 5, runOrdinal: 2 }, inheritance)).toBe(false);
    expect(isInheritedRow({ sortKey: 5, runOrdinal: null }, inheritance)).toBe(true);
  });
});
