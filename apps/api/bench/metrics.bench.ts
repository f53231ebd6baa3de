// B11 / #18: what the Prometheus metrics cost the hot path. The same append workload runs on a
// store with the metrics attached (their append counter follows the log) and without, alternating,
// best of three each; the row is the ratio of the two rates.
import { type EventStore, openSqliteEventStore } from "@skein/db";
import { createSkeinMetrics } from "../src/metrics/skein-metrics.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { overheadRatio } from "./overhead-ratio.ts";

const APPENDS = benchSize(10_000, 500);
const STREAMS = 500;
const CLIENTS = 100;

async function appendRate(store: EventStore): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const mine = Array.from({ length: STREAMS / CLIENTS }, (_, i) => `thread-${client}-${i}`);
      for (let n = 0; n < APPENDS / CLIENTS; n += 1) {
        const streamId = mine[n % mine.length]!;
        const version = Math.floor(n / mine.length);
        await store.append(streamId, version, [{ type: "MessageAdded", data: { n, text: "x" } }], {
          commandId: `cmd-${client}-${n}`,
          receipt: { n },
        });
      }
    }),
  );
  return APPENDS / ((performance.now() - started) / 1_000);
}

async function rate(withMetrics: boolean): Promise<number> {
  const store = openSqliteEventStore({ temporary: true });
  const metrics = withMetrics ? createSkeinMetrics({ store, instanceId: "bench" }) : null;
  try {
    const result = await appendRate(store);
    // A scrape during the load is part of what an operator's Prometheus adds.
    if (metrics) await metrics.render();
    return result;
  } finally {
    metrics?.close();
    await store.close();
  }
}

const { ratio, attached, plain } = await overheadRatio(rate);
console.log(`appends/s: ${Math.round(attached)} with metrics, ${Math.round(plain)} without`);
writeBenchRows("api-metrics.json", [
  {
    name: "metrics_append_ratio",
    value: Math.round(ratio * 1000) / 1000,
    unit: "ratio",
    target: ">= 0.95",
    pass: ratio >= 0.95,
  },
]);
