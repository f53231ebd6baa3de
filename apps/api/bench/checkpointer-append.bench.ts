// B8 / #18: what the background fold checkpointer costs the hot path. The metrics bench's append
// shape (100 clients, 500 thread streams, one event per append) runs with the checkpointer
// following the store and without, alternating, best of three each; the row is the ratio of the
// two rates. The events are real (a seeded history's), and a small interval (every 5 stream
// events) makes the checkpointer fold and store a step for each stream again and again.
import { type EventStore, type NewEvent, openSqliteEventStore } from "@skein/db";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { createSilentLogger } from "../src/logger.ts";
import { FoldCheckpointer } from "../src/read-models/fold-checkpointer.ts";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { overheadRatio } from "./overhead-ratio.ts";

const STREAMS = benchSize(500, 20);
const CLIENTS = benchSize(100, 10);

/** Each thread stream's events (created, then two whole runs), to append one by one. */
async function seededStreams(): Promise<Map<string, NewEvent[]>> {
  const source = openSqliteEventStore({ temporary: true });
  try {
    const seed = new HistorySeeder(source);
    for (let i = 0; i < STREAMS; i += 1) {
      const threadId = seed.createThread(`t${i}`);
      seed.run(threadId, "hello");
      seed.run(threadId, "again");
    }
    await seed.flush();
    const streams = new Map<string, NewEvent[]>();
    for (const event of await source.readAll(0)) {
      const list = streams.get(event.streamId) ?? [];
      list.push({ type: event.type, data: event.data } as NewEvent);
      streams.set(event.streamId, list);
    }
    return streams;
  } finally {
    await source.close();
  }
}

const streams = await seededStreams();
const ids = [...streams.keys()];
const APPENDS = [...streams.values()].reduce((n, list) => n + list.length, 0);

async function appendRate(store: EventStore): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const mine = ids.filter((_id, i) => i % CLIENTS === client);
      const longest = Math.max(...mine.map((id) => streams.get(id)!.length));
      for (let version = 0; version < longest; version += 1) {
        for (const streamId of mine) {
          const event = streams.get(streamId)![version];
          if (!event) continue;
          await store.append(streamId, version, [event], {
            commandId: `cmd-${streamId}-${version}`,
            receipt: { version },
          });
        }
      }
    }),
  );
  return APPENDS / ((performance.now() - started) / 1_000);
}

async function rate(withCheckpointer: boolean): Promise<number> {
  const store = openSqliteEventStore({ temporary: true });
  const folds = new PastFolds({ every: 5 });
  const checkpointer = withCheckpointer
    ? new FoldCheckpointer(store, folds, { log: createSilentLogger() })
    : null;
  await checkpointer?.start();
  try {
    const result = await appendRate(store);
    if (checkpointer) {
      await checkpointer.settled();
      console.log(`checkpointer: ${JSON.stringify(checkpointer.counts)}`);
    }
    return result;
  } finally {
    await checkpointer?.stop();
    await store.close();
  }
}

const { ratio, attached, plain } = await overheadRatio(rate);
console.log(
  `appends/s: ${Math.round(attached)} with the checkpointer, ${Math.round(plain)} without`,
);
writeBenchRows("api-checkpointer.json", [
  {
    name: "checkpointer_append_ratio",
    value: Math.round(ratio * 1000) / 1000,
    unit: "ratio",
    target: ">= 0.95",
    pass: ratio >= 0.95,
  },
]);
