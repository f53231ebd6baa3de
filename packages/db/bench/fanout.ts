import { openSqliteEventStore } from "../src/index.ts";
import type { BenchRow } from "../src/bench/measure.ts";
import { percentile, round } from "../src/bench/measure.ts";
import { benchSize } from "./smoke.ts";

const SUBSCRIBERS = benchSize(100, 10);
const EVENTS_PER_SECOND = 1_000;
const SECONDS = benchSize(3, 1);
const TICK_MS = 10;

/**
 * 100 in-process subscribers while 1,000 single-event appends/s are committed. Latency runs from
 * the moment the group commit starts its transaction (the store clock is replaced by a counter
 * whose values map to performance.now()), so it includes the transaction itself, to the moment
 * a subscriber's `for await` body sees the event.
 */
export async function benchFanout(): Promise<BenchRow[]> {
  const commitStartedAt: number[] = [];
  const store = openSqliteEventStore({
    temporary: true,
    now: () => {
      commitStartedAt.push(performance.now());
      return new Date(commitStartedAt.length - 1);
    },
  });
  const total = EVENTS_PER_SECOND * SECONDS;
  const latencies: number[] = [];
  const consumers = Array.from({ length: SUBSCRIBERS }, async () => {
    const subscription = store.subscribe({ afterSequence: 0 });
    for await (const event of subscription) {
      const commit = commitStartedAt[Date.parse(event.recordedAt)] ?? Number.NaN;
      latencies.push(performance.now() - commit);
      if (event.sequence >= total) break;
    }
  });

  const perTick = (EVENTS_PER_SECOND * TICK_MS) / 1_000;
  let issued = 0;
  const appends: Promise<unknown>[] = [];
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      for (let i = 0; i < perTick && issued < total; i += 1) {
        issued += 1;
        appends.push(
          store.append(`thread-${issued % 50}`, "any", [{ type: "Tick", data: { issued } }]),
        );
      }
      if (issued >= total) {
        clearInterval(timer);
        resolve();
      }
    }, TICK_MS);
  });
  await Promise.all(appends);
  await Promise.all(consumers);
  await store.close();

  const p99 = percentile(latencies, 99);
  console.log(
    `fanout: ${latencies.length} deliveries, ${commitStartedAt.length} commits, p50 ${round(percentile(latencies, 50), 3)} ms, p99 ${round(p99, 3)} ms, max ${round(percentile(latencies, 100), 3)} ms`,
  );
  return [
    { name: "fanout_p99_ms", value: round(p99, 3), unit: "ms", target: "<= 20", pass: p99 <= 20 },
  ];
}
