import { describe, expect, it } from "vitest";
import { collectRunContents } from "./handoff-content.ts";
import type { ContextTransfer } from "./inputs.ts";
import { resolveStartContext } from "./resolve-start-context.ts";
import { resolveInput, runId, runs, transfer, turnItemsFor } from "./test-support/fixtures.ts";

// thr_main was forked from thr_source inside its run 2, right after a command ran (E12).
const source = runs({
  threadId: "thr_source",
  from: 1,
  to: 3,
  provider: "codex",
  providerThreadId: "pth_S",
});
const items = turnItemsFor(source);
const cutItem = "itm_thr_source#2_c0";
const fork: ContextTransfer = transfer({
  type: "fork",
  sourcePoint: {
    threadId: "thr_source",
    runId: runId("thr_source", 2),
    checkpointId: null,
    turnItemId: cutItem,
    providerThreadRef: "codex-thread-S",
    // A point before the turn's end has no native turn to cut at (the domain leaves it out).
    providerTurnRef: null,
  },
});

describe("E12: a fork from a turn item inside a run", () => {
  it("E12 T3: resolves portably, covering the runs up to the item's run, cut after the item", () => {
    const result = resolveStartContext(
      resolveInput({ runs: source, turnItems: items, pendingTransfers: [fork] }),
    );
    expect(result).toMatchObject({
      kind: "portable",
      reason: "no_native_ref",
      handoff: {
        selection: [{ threadId: "thr_source", ordinals: [1, 2], throughItemId: cutItem }],
        coveredRunOrdinals: { from: 1, to: 2 },
      },
    });
  });

  it("E12: the handoff's content of the cut run stops at the item: its later file change and reply are not carried", () => {
    const contents = collectRunContents(
      [{ threadId: "thr_source", ordinals: [1, 2], throughItemId: cutItem }],
      source,
      items,
    );
    expect(contents.map((c) => c.ordinal)).toEqual([1, 2]);
    expect(contents[0]!.assistantReply).toContain("assistant answers thr_source#1");
    expect(contents[1]!.userMessage).toContain("user asks thr_source#2");
    expect(contents[1]!.commands).toHaveLength(1);
    expect(contents[1]!.fileChanges).toEqual([]);
    expect(contents[1]!.assistantReply).toBeNull();
  });

  it("E12: an item that is not the cut run's is refused, never silently ignored", () => {
    expect(() =>
      collectRunContents(
        [{ threadId: "thr_source", ordinals: [1, 2], throughItemId: "itm_thr_source#3_a" }],
        source,
        items,
      ),
    ).toThrow(/not an item of run/);
  });
});
