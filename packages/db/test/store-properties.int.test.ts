import fc from "fast-check";
import { expect, it, vi } from "vitest";
import { ConcurrencyError, type EventStore } from "../src/index.ts";
import {
  appendCounter,
  type CounterEvent,
  inc,
  readTables,
  rebuild,
} from "./support/counter-model.ts";
import { describeStores } from "./support/store-factory.ts";

type Step = {
  stream: number;
  events: CounterEvent[];
  /** Reuse an earlier step's command id (a retry) instead of a fresh one. */
  retryOf: number | null;
  staleBy: number;
};

const eventArb: fc.Arbitrary<CounterEvent> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: -5, max: 5 }).map(inc) },
  { weight: 1, arbitrary: fc.constant<CounterEvent>({ type: "Reset", data: {} }) },
  { weight: 1, arbitrary: fc.constant<CounterEvent>({ type: "Removed", data: {} }) },
);

const stepArb: fc.Arbitrary<Step> = fc.record({
  stream: fc.integer({ min: 0, max: 3 }),
  events: fc.array(eventArb, { minLength: 1, maxLength: 2 }),
  retryOf: fc.option(fc.nat(40), { freq: 4 }),
  staleBy: fc.oneof(
    { weight: 5, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2 }) },
  ),
});

/** Steps grouped into rounds; the steps of a round run concurrently (one group commit or more). */
const scheduleArb = fc.array(fc.array(stepArb, { minLength: 1, maxLength: 6 }), {
  minLength: 1,
  maxLength: 8,
});

describeStores("event store properties", (stores) => {
  it("S1/S2: random interleavings keep sequences dense and projections equal to a rebuild", async () => {
    await fc.assert(
      fc.asyncProperty(scheduleArb, async (rounds) => {
        const store: EventStore = await stores.fresh();
        try {
          const live: number[] = [];
          const subscription = store.subscribe({ afterSequence: 0 });
          const consumed = (async () => {
            for await (const event of subscription) live.push(event.sequence);
          })();

          const committed = new Map<string, { first: number; last: number }>();
          let index = 0;
          for (const round of rounds) {
            await Promise.all(
              round.map(async (step) => {
                const own = index;
                index += 1;
                const commandId =
                  step.retryOf !== null && step.retryOf < own
                    ? `cmd-${step.retryOf}`
                    : `cmd-${own}`;
                try {
                  const result = await appendCounter(store, `counter-${step.stream}`, step.events, {
                    commandId,
                    staleBy: step.staleBy,
                  });
                  const known = committed.get(commandId);
                  if (result.duplicate) {
                    expect(known).toEqual({
                      first: result.firstSequence,
                      last: result.lastSequence,
                    });
                  } else {
                    expect(known).toBeUndefined();
                    committed.set(commandId, {
                      first: result.firstSequence,
                      last: result.lastSequence,
                    });
                  }
                } catch (error) {
                  expect(error).toBeInstanceOf(ConcurrencyError);
                }
              }),
            );
          }

          const log = await store.readAll(0);
          // Strictly increasing and dense: nothing missed, nothing duplicated.
          expect(log.map((e) => e.sequence)).toEqual(log.map((_, i) => i + 1));
          expect(await store.headSequence()).toBe(log.length);
          // Exactly the events of the appends that reported a commit.
          const expected = [...committed.values()].flatMap(({ first, last }) =>
            Array.from({ length: last - first + 1 }, (_, i) => first + i),
          );
          expect(expected.sort((a, b) => a - b)).toEqual(log.map((e) => e.sequence));
          // Per-stream versions are 1..n.
          for (let stream = 0; stream < 4; stream += 1) {
            const events = await store.readStream(`counter-${stream}`);
            expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => i + 1));
          }
          expect(await readTables(store)).toEqual(rebuild(log));

          // A subscriber attached before the first append sees the whole log, in order, once.
          await vi.waitFor(() => expect(live.length).toBe(log.length));
          subscription.close();
          await consumed;
          expect(live).toEqual(log.map((e) => e.sequence));
        } finally {
          await store.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});
