import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ThreadCommand } from "../commands.ts";
import type { ThreadEvent } from "../events.ts";
import { createSequentialIds } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import { projectEvent } from "../projections/project-event.ts";
import { richScenario } from "../testing/rich-scenario.ts";
import { threadCommand } from "../testing/random-thread-commands.ts";
import { EXTRA_THREAD_ACTIONS, THREAD_ACTIONS } from "../testing/random-world-commands.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { decideThread } from "../thread/decide-thread.ts";
import {
  compactStateWithKeys,
  isCompactState,
  restoreCompactState,
  serializeCompactState,
} from "./compact-state.ts";
import { evolveThread } from "./evolve-thread.ts";
import { HistoryNeeded } from "./partial-map.ts";
import { serializeState } from "./state-snapshot.ts";
import { initialThreadState, type ThreadState } from "./thread-state.ts";

const ACTIONS = [...THREAD_ACTIONS, ...EXTRA_THREAD_ACTIONS] as const;

function compactOf(state: ThreadState): ThreadState {
  const compact = restoreCompactState(serializeCompactState(state));
  if (!compact) throw new Error("compact snapshot did not restore");
  return compact;
}

/** The value of `fn`, or "history" when it needed what the compact state left out. */
function orHistory<T>(fn: () => T): T | "history" {
  try {
    return fn();
  } catch (error) {
    if (error instanceof HistoryNeeded) return "history";
    throw error;
  }
}

/** A full thread state folded from the first `cut` events. */
function foldedUpTo(events: readonly ThreadEvent[], cut: number): ThreadState {
  const full = initialThreadState();
  for (const event of events.slice(0, cut)) evolveThread(full, event);
  return full;
}

/**
 * Folds `rest` into both states and checks each event's rows on `compact` equal the full state's,
 * until the compact one asks for history; returns how many events it answered.
 */
function answersLikeFull(
  full: ThreadState,
  compact: ThreadState,
  rest: readonly ThreadEvent[],
): number {
  let answered = 0;
  for (const event of rest) {
    evolveThread(full, event);
    const rows = orHistory(() => projectEvent(evolveThread(compact, event), event));
    if (rows === "history") break;
    expect(rows).toEqual(projectEvent(full, event));
    answered += 1;
  }
  return answered;
}

function manyRuns(count: number): ThreadScenario {
  const s = new ThreadScenario("long").create();
  const providerThreadId = s.providerThread();
  for (let i = 0; i < count; i += 1) {
    const text = `message ${i}: ${"lorem ipsum ".repeat(8)}`;
    s.completedRun(text, { providerThreadId, checkpoint: true });
  }
  return s;
}

describe("compact thread state (issue 20, item 3)", () => {
  it("holds only recent runs, so its size does not grow with the thread's history", () => {
    const short = serializeCompactState(manyRuns(5).state).length;
    const long = serializeCompactState(manyRuns(300).state);
    expect(serializeState(manyRuns(300).state).length).toBeGreaterThan(40 * short);
    // Only the run order and the filter of left-out keys grow: a few bytes a run.
    console.log(`compact: ${short} bytes at 5 runs, ${long.length} at 300`);
    expect(long.length).toBeLessThan(short + 300 * 60);
    expect(isCompactState(compactOf(manyRuns(300).state))).toBe(true);
  });

  it("evolving a compact state gives the full state's rows, or asks for the history", () => {
    const { s } = richScenario();
    let answered = 0;
    for (let cut = 1; cut < s.events.length; cut += 1) {
      const full = foldedUpTo(s.events, cut);
      answered += answersLikeFull(full, compactOf(full), s.events.slice(cut));
    }
    expect(answered).toBeGreaterThan(s.events.length);
  });

  it("B8: a continued compact state compacts again with the keys it left out, as the full state would answer", () => {
    const { s } = richScenario();
    let answered = 0;
    for (let cut = 1; cut < s.events.length - 1; cut += 1) {
      const full = foldedUpTo(s.events, cut);
      const first = compactStateWithKeys(full);
      const compact = restoreCompactState(first.text, first.leftOut)!;
      const mid = Math.min(s.events.length - 1, cut + 3);
      let continued = true;
      for (const event of s.events.slice(cut, mid)) {
        evolveThread(full, event);
        if (orHistory(() => evolveThread(compact, event)) === "history") continued = false;
        if (!continued) break;
      }
      if (!continued) continue;
      // Without the keys left out before, a compact state cannot be compacted again.
      expect(() => compactStateWithKeys(compact)).toThrow(HistoryNeeded);
      const again = compactStateWithKeys(compact, first.leftOut);
      for (const key of first.leftOut) expect(again.leftOut.has(key)).toBe(true);
      const restored = restoreCompactState(again.text, again.leftOut)!;
      answered += answersLikeFull(full, restored, s.events.slice(mid));
    }
    expect(answered).toBeGreaterThan(s.events.length);
  });

  it("decides every command as the full state does, or asks for the history", () => {
    const action = fc.record({
      kind: fc.constantFrom(...ACTIONS, "queue", "start", "start", "finish", "item", "checkpoint"),
      pick: fc.nat(50),
      flag: fc.nat(20),
    });
    const decided = new Map<string, number>();
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 60 }), (actions) => {
        const s = new ThreadScenario("compact").create();
        actions.forEach((a, n) => {
          const command: ThreadCommand | null = threadCommand(
            { ...a, target: 0 },
            s.state,
            s.threadId,
            `p${n}`,
          );
          if (!command) return;
          const base = s.meta();
          const meta = (): CommandMeta => ({ ...base, ids: createSequentialIds(`c${n}`) });
          const compact = compactOf(s.state);
          const fromCompact = orHistory(() => decideThread(command, compact, meta()));
          const fromFull = decideThread(command, s.state, meta());
          if (fromCompact !== "history") {
            expect(fromCompact).toEqual(fromFull);
            decided.set(command.type, (decided.get(command.type) ?? 0) + 1);
          }
          if (!fromFull.ok) return;
          for (const event of fromFull.events) evolveThread(s.state, event);
        });
      }),
      { numRuns: 40, seed: 20261201 },
    );
    // Not vacuous: the everyday commands decide on the compact state alone.
    for (const type of ["QueueRun", "StartRun", "StartProviderTurn", "FailRun"]) {
      expect(decided.get(type) ?? 0, type).toBeGreaterThan(0);
    }
  });
});
