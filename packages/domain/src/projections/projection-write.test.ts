import { describe, expect, it } from "vitest";
import type { DomainEvent } from "../events.ts";
import { evolveThread } from "../state/evolve-thread.ts";
import { initialThreadState } from "../state/thread-state.ts";
import { richScenario } from "../testing/rich-scenario.ts";
import { projectEvent } from "./project-event.ts";
import { lastWritePerRow, type ProjectionWrite } from "./projection-write.ts";
import { applyWrites } from "./rebuild.ts";

/** Every write of a whole scenario, serialized as the store does when it prepares an append. */
function scenarioWrites(): ProjectionWrite[] {
  const state = initialThreadState();
  const writes: ProjectionWrite[] = [];
  for (const event of richScenario().s.events) {
    evolveThread(state, event);
    for (const write of projectEvent(state, event as DomainEvent))
      writes.push(JSON.parse(JSON.stringify(write)) as ProjectionWrite);
  }
  return writes;
}

const put = (id: string, status: string): ProjectionWrite => ({
  op: "put",
  table: "runs",
  id,
  threadId: "thr_1",
  sortKey: 1,
  runOrdinal: 1,
  status,
  data: { status },
});

describe("lastWritePerRow: one write per row in an append of many events", () => {
  it("leaves the tables as writing every event's rows one by one does, with fewer writes", () => {
    const writes = scenarioWrites();
    const once = lastWritePerRow(writes);
    expect(once.length).toBeLessThan(writes.length / 2);
    expect(new Set(once.map((w) => `${w.table}/${w.id}`)).size).toBe(once.length);
    expect(applyWrites(new Map(), once)).toEqual(applyWrites(new Map(), writes));
  });

  it("a row deleted after its put stays deleted; put again after a delete it is back", () => {
    const gone: ProjectionWrite = { op: "delete", table: "runs", id: "run_a" };
    expect(lastWritePerRow([put("run_a", "running"), gone, put("run_b", "queued")])).toEqual([
      gone,
      put("run_b", "queued"),
    ]);
    expect(lastWritePerRow([gone, put("run_a", "completed")])).toEqual([put("run_a", "completed")]);
  });
});
