import { describe, expect, it } from "vitest";
import type { ThreadEvent } from "./events.ts";
import { projectEvent } from "./projections/project-event.ts";
import { evolveThread } from "./state/evolve-thread.ts";
import { initialThreadState, type ThreadState } from "./state/thread-state.ts";
import { testMeta } from "./testing/decider-spec.ts";
import { id, readThreads } from "./testing/fixtures.ts";
import { ThreadScenario } from "./testing/scenario.ts";
import { decideThread } from "./thread/decide-thread.ts";

/** A thread with `runs` completed runs of 10 turn items each, on one provider thread. */
function bigThread(runs: number, name: string): ThreadScenario {
  const s = new ThreadScenario(name).create();
  const pt = s.providerThread();
  for (let r = 0; r < runs; r += 1) {
    const runId = s.queue(`message ${r}`);
    const { providerTurnId } = s.start(runId, pt);
    for (let i = 0; i < 9; i += 1) {
      const nodeId = s.ids.next("node");
      s.exec({
        type: "StartItem",
        data: {
          threadId: s.threadId,
          providerTurnId,
          nodeId,
          kind: "tool_call",
          content: { type: "command_execution", input: `cmd ${i}` },
        },
      });
      s.exec({ type: "CompleteItem", data: { threadId: s.threadId, nodeId, status: "completed" } });
    }
    s.finish(providerTurnId);
  }
  return s;
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function forkCost(source: ThreadState): number {
  const samples: number[] = [];
  for (let i = 0; i < 25; i += 1) {
    const start = performance.now();
    const result = decideThread(
      {
        type: "ForkThread",
        data: {
          threadId: id("thread", `f${i}`),
          sourceThreadId: source.thread?.id ?? id("thread", "x"),
          sourcePoint: { type: "latest_stable" },
          createdBy: "user",
          relationship: "fork",
        },
      },
      initialThreadState(),
      testMeta(),
      readThreads(source),
    );
    samples.push(performance.now() - start);
    expect(result.ok).toBe(true);
  }
  return median(samples);
}

describe("performance on a 2,000-run / 20,000-item thread", () => {
  const big = bigThread(2000, "big");
  const small = bigThread(1, "small");

  it("holds 2,000 runs and 20,000 turn items", () => {
    expect(big.state.runs.size).toBe(2000);
    expect(big.state.turnItems.size).toBe(20_000);
  });

  it("evolve + projectEvent cost per event does not grow with the thread", () => {
    const events: ThreadEvent[] = big.events;
    const tenth = Math.floor(events.length / 10);
    let early = Number.POSITIVE_INFINITY;
    let late = Number.POSITIVE_INFINITY;
    // Best of three replays, so a GC pause or a busy neighbour does not decide the outcome.
    for (let round = 0; round < 3; round += 1) {
      const state = initialThreadState();
      const timeSlice = (from: number, to: number) => {
        const start = performance.now();
        for (let i = from; i < to; i += 1) {
          const event = events[i] as ThreadEvent;
          evolveThread(state, event);
          projectEvent(state, event);
        }
        return performance.now() - start;
      };
      timeSlice(0, tenth);
      early = Math.min(early, timeSlice(tenth, 2 * tenth));
      timeSlice(2 * tenth, events.length - tenth);
      late = Math.min(late, timeSlice(events.length - tenth, events.length));
      expect(state.turnItems.size).toBe(20_000);
    }
    // Copying collections per event would make the late slice ~10x slower than the early one.
    expect(late).toBeLessThan(early * 3 + 10);
  });

  it("fork cost does not depend on the source's size (T1)", () => {
    forkCost(small.state);
    const onSmall = forkCost(small.state);
    const onBig = forkCost(big.state);
    expect(onBig).toBeLessThan(onSmall * 5 + 0.5);
  });
});
