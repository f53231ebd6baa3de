import { visibleItemsOf } from "./thread-detail.ts";
import { describe, expect, it } from "vitest";
import type { TurnItem } from "../entities/turn-item.ts";
import { detailFromRows, incrementalRows, tableRows } from "../testing/rows.ts";
import { ThreadScenario } from "../testing/scenario.ts";

/** The run ordinals of neighbouring items, with repeats folded: one entry per run header. */
function runBlocks(items: readonly TurnItem[]): Array<number | null> {
  const blocks: Array<number | null> = [];
  for (const item of items) if (blocks.at(-1) !== item.runOrdinal) blocks.push(item.runOrdinal);
  return blocks;
}

function texts(items: readonly TurnItem[]): string[] {
  return items.map((item) =>
    item.type === "user_message" || item.type === "assistant_message" ? item.text : item.type,
  );
}

describe("P6: a message queued behind a running run", () => {
  it("shows its run once, after the running run's items, while queued and once started", () => {
    const s = new ThreadScenario().create();
    const first = s.queue("first");
    const one = s.start(first);
    s.say(one.providerTurnId, "a1");
    const second = s.queue("second");
    s.say(one.providerTurnId, "a2");

    const waiting = detailFromRows(incrementalRows(s.events), s.threadId);
    expect(texts(visibleItemsOf(waiting))).toEqual(["first", "a1", "a2", "second"]);
    expect(runBlocks(visibleItemsOf(waiting))).toEqual([1, 2]);

    s.finish(one.providerTurnId);
    const two = s.start(second);
    s.say(two.providerTurnId, "b1");
    s.finish(two.providerTurnId);

    const rows = incrementalRows(s.events);
    // The stored order itself is fixed (forks cut and windows read by sort key), not only the view.
    const byKey = tableRows<TurnItem>(rows, "turn_items", s.threadId)
      .sort((a, b) => a.sortKey - b.sortKey)
      .map((row) => row.data);
    expect(texts(byKey)).toEqual(["first", "a1", "a2", "second", "b1"]);
    const incremental = detailFromRows(rows, s.threadId);
    expect(texts(visibleItemsOf(incremental))).toEqual(["first", "a1", "a2", "second", "b1"]);
    expect(runBlocks(visibleItemsOf(incremental))).toEqual([1, 2]);
    expect(texts(incremental.turnItems)).toEqual(texts(visibleItemsOf(incremental)));
  });

  it("a message cancelled while queued stays one block behind the run that kept going", () => {
    const s = new ThreadScenario().create();
    const first = s.queue("first");
    const one = s.start(first);
    const second = s.queue("second");
    s.say(one.providerTurnId, "a1");
    s.exec({ type: "CancelQueuedRun", data: { threadId: s.threadId, runId: second } });
    s.say(one.providerTurnId, "a2");
    s.finish(one.providerTurnId);
    const detail = detailFromRows(incrementalRows(s.events), s.threadId);
    expect(texts(visibleItemsOf(detail))).toEqual(["first", "a1", "a2", "second"]);
    expect(runBlocks(visibleItemsOf(detail))).toEqual([1, 2]);
  });
});
