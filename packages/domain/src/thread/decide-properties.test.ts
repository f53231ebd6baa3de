import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ThreadCommand } from "../commands.ts";
import { ACTIVE_RUN_STATUSES } from "../entities/run.ts";
import { formatZodError } from "../errors.ts";
import { DomainEvent, type ThreadEvent } from "../events.ts";
import {
  continueStreamFold,
  copyStreamFold,
  newStreamFold,
  rebuildRows,
} from "../projections/rebuild.ts";
import { evolveThread } from "../state/evolve-thread.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { incrementalRows } from "../testing/rows.ts";
import { threadCommand } from "../testing/random-thread-commands.ts";
import {
  EXTRA_THREAD_ACTIONS,
  THREAD_ACTIONS,
  type ThreadAction,
} from "../testing/random-world-commands.ts";
import { ThreadScenario } from "../testing/scenario.ts";
import { decideThread } from "./decide-thread.ts";

const ACTIONS = [...THREAD_ACTIONS, ...EXTRA_THREAD_ACTIONS] as const;

/** An abstract action as a concrete command against the scenario's state (may be invalid). */
function commandFor(
  a: { kind: ThreadAction; pick: number; flag: number },
  s: ThreadScenario,
  n: number,
): ThreadCommand | null {
  return threadCommand({ ...a, target: 0 }, s.state, s.threadId, `p${n}`);
}

function checkInvariants(st: ThreadState): void {
  const active = [...st.runs.values()].filter((r) => ACTIVE_RUN_STATUSES.includes(r.status));
  expect(active.length).toBeLessThanOrEqual(1);
  expect(st.activeRunId).toBe(active[0]?.id ?? null);
  for (const requestId of st.pendingRequestIds)
    expect(st.requests.get(requestId)?.status).toBe("pending");
  const keys = [...st.turnItems.values()].map((e) => e.sortKey);
  expect(keys).toEqual([...keys].sort((a, b) => a - b));
  expect(new Set(keys).size).toBe(keys.length);
  for (const id of st.queuedRunIds) expect(st.runs.get(id)?.status).toBe("queued");
}

const seen = new Set<string>();
const CODES = [
  "invalid_transition",
  "not_found",
  "conflict",
  "validation",
  "capability_unsupported",
  "precondition_failed",
];

describe("random command sequences", () => {
  it("keep invariants, never change state on rejection, emit schema-valid events, and rebuild to the same rows", () => {
    // Weighted so sequences often get runs going and finished, not just rejected.
    const weighted = [
      ...ACTIONS,
      "queue",
      "queue",
      "start",
      "start",
      "item",
      "item",
      "delta",
      "finish",
      "finish",
      "checkpoint",
      "rollback",
      "request",
      "resolve",
      "retry",
      "retry",
    ] as const;
    const action = fc.record({
      kind: fc.constantFrom(...weighted),
      pick: fc.nat(50),
      flag: fc.nat(20),
    });
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 80, size: "max" }), (actions) => {
        const s = new ThreadScenario("prop").create();
        const log: ThreadEvent[] = [...s.events];
        const steps = actions.flatMap((a) =>
          a.kind === "start" ? [a, a, a] : a.kind === "checkpoint" ? [a, a] : [a],
        );
        steps.forEach((a, n) => {
          const command = commandFor(a, s, n);
          if (!command) return;
          const before = structuredClone(s.state);
          const result = decideThread(command, s.state, s.meta());
          expect(s.state).toEqual(before);
          if (!result.ok) {
            expect(result.error.message).not.toBe("");
            expect(CODES).toContain(result.error.code);
            return;
          }
          for (const event of result.events) {
            seen.add(event.type);
            const parsed = DomainEvent.safeParse(event);
            if (!parsed.success) throw new Error(`${event.type}: ${formatZodError(parsed.error)}`);
            evolveThread(s.state, event);
            log.push(event);
          }
          checkInvariants(s.state);
        });
        const rebuilt = rebuildRows([[`thread-${s.threadId}`, log]]);
        expect(rebuilt).toEqual(incrementalRows(log));
        // B8: a fold kept at a checkpoint and continued later ends where one fold from the start does.
        const cut = Math.floor(log.length / 2);
        const kept = continueStreamFold(newStreamFold(`thread-${s.threadId}`), log.slice(0, cut));
        const resumed = continueStreamFold(copyStreamFold(kept), log.slice(cut));
        expect(resumed.rows).toEqual(rebuilt);
        expect(resumed.version).toBe(log.length);
        expect(kept.version).toBe(cut);
        expect(kept.rows).toEqual(rebuildRows([[`thread-${s.threadId}`, log.slice(0, cut)]]));
      }),
      { numRuns: 60, seed: 20250101 },
    );
    // The generator must reach the interesting paths, not just pile up rejections.
    for (const type of [
      "RunStarted",
      "ProviderTurnStarted",
      "ItemStarted",
      "RuntimeRequestResolved",
      "RunFinished",
      "RunRecovered",
      "AttemptRestarted",
      "ThreadRolledBack",
      "RunSteered",
      "RunRetryQueued",
    ]) {
      expect(seen, type).toContain(type);
    }
  });
});
