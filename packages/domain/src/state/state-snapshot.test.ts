import { describe, expect, it } from "vitest";
import { projectEvent } from "../projections/project-event.ts";
import { richScenario } from "../testing/rich-scenario.ts";
import { evolveThread } from "./evolve-thread.ts";
import { restoreState, serializeState } from "./state-snapshot.ts";
import { initialThreadState, type ThreadState } from "./thread-state.ts";

describe("aggregate state snapshots (issue 20)", () => {
  it("restore(serialize(state)) equals the replayed state, and evolves on identically", () => {
    const { s } = richScenario();
    const events = s.events;
    const half = Math.floor(events.length / 2);
    const replayed = initialThreadState();
    for (const event of events.slice(0, half)) evolveThread(replayed, event);
    const restored = restoreState(serializeState(replayed), "thread") as ThreadState;
    expect(restored).not.toBeNull();
    const { changed: _a, ...expected } = replayed;
    const { changed: _b, ...actual } = restored;
    expect(actual).toEqual(expected);
    // The rest of the stream gives the same state and the same projection rows either way.
    for (const event of events.slice(half)) {
      evolveThread(replayed, event);
      evolveThread(restored, event);
      expect(projectEvent(restored, event)).toEqual(projectEvent(replayed, event));
    }
    expect(restored.runs).toEqual(replayed.runs);
    expect(restored.openNodesByRun).toEqual(replayed.openNodesByRun);
    expect(restored.turnItems).toEqual(replayed.turnItems);
  });

  it("a snapshot of another kind or shape is ignored (the caller replays the stream)", () => {
    const text = serializeState(initialThreadState());
    expect(restoreState(text, "project")).toBeNull();
    expect(restoreState(text.replace('"keys":"', '"keys":"extra,'), "thread")).toBeNull();
    expect(restoreState("not json", "thread")).toBeNull();
  });
});
