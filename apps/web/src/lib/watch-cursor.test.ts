import { describe, expect, it } from "vitest";
import type { StoredEvent, WatchMessage } from "./types.ts";
import { advanceCursor, initialCursor, lastEventIdOf, type WatchCursor } from "./watch-cursor.ts";

const event = (sequence: number): StoredEvent => ({
  sequence,
  streamId: "thread-thr_1",
  streamVersion: sequence,
  type: "ItemDeltaAppended",
  data: {},
  commandId: null,
  recordedAt: "2026-01-01T00:00:00.000Z",
});
/** One tracked message per event, as the server sends them. */
const events = (...sequences: number[]): [string, WatchMessage<string>][] =>
  sequences.map((s) => [String(s), { type: "event", event: event(s) }]);

function feed(messages: [string, WatchMessage<string>][], start: WatchCursor = initialCursor) {
  let state = start;
  const applied: number[] = [];
  const snapshots: string[] = [];
  for (const [id, message] of messages) {
    const next = advanceCursor(state, id, message);
    state = next.state;
    if (next.step.kind === "snapshot") snapshots.push(next.step.data);
    else applied.push(...next.step.events.map((e) => e.sequence));
  }
  return { state, applied, snapshots };
}

describe("S2 client cursor", () => {
  it("starts without a cursor, so the first subscription asks for a snapshot", () => {
    expect(lastEventIdOf(initialCursor)).toBeNull();
  });

  it("a snapshot sets the cursor; later events advance it and are applied in order", () => {
    const { state, applied, snapshots } = feed([
      ["10", { type: "snapshot", data: "at 10" }],
      ...events(11, 12),
      ...events(13),
    ]);
    expect(snapshots).toEqual(["at 10"]);
    expect(applied).toEqual([11, 12, 13]);
    expect(lastEventIdOf(state)).toBe("13");
  });

  it("drops events at or below the cursor (a resume overlapping what was applied)", () => {
    const { state, applied } = feed([
      ["10", { type: "snapshot", data: "s" }],
      ...events(11, 12),
      ...events(12, 13, 14),
      ...events(14),
    ]);
    expect(applied).toEqual([11, 12, 13, 14]);
    expect(state.duplicates).toBe(2);
    expect(state.cursor).toBe(14);
  });

  it("a fresh snapshot resets the cursor, even to a lower sequence (another database)", () => {
    const { state, snapshots, applied } = feed([
      ["50", { type: "snapshot", data: "old" }],
      ...events(51),
      ["3", { type: "snapshot", data: "new" }],
      ...events(4),
    ]);
    expect(snapshots).toEqual(["old", "new"]);
    expect(applied).toEqual([51, 4]);
    expect(state.cursor).toBe(4);
  });
});
