import { type EventStore, openSqliteEventStore } from "../src/index.ts";
import type { BenchRow } from "../src/bench/measure.ts";
import { round } from "../src/bench/measure.ts";
import { openWriter } from "../src/sqlite/connection.ts";
import { applyMigrations, loadMigrations } from "../src/sqlite/migrator.ts";
import { benchSize } from "./smoke.ts";
import type { ProjectionWrite } from "../src/projection-types.ts";

export type Row = {
  streamId: string;
  version: number;
  type: string;
  data: { n: number; text: string };
};

const APPENDS = benchSize(20_000, 1_000);
const STREAMS = benchSize(1_000, 100);
/** Concurrent callers, each owning its own streams (so versions are known and never stale). */
export const CLIENTS = benchSize(200, 20);

/** The append_ratio workload (shared with pg_append_ratio): 20k appends over 1,000 streams. */
export function rows(): Row[] {
  const versions = new Map<string, number>();
  return Array.from({ length: APPENDS }, (_, n) => {
    const streamId = `thread-${n % STREAMS}`;
    const version = (versions.get(streamId) ?? 0) + 1;
    versions.set(streamId, version);
    return { streamId, version, type: "MessageAdded", data: { n, text: `message ${n}` } };
  });
}

export function projections(row: Row): ProjectionWrite[] {
  const shell: ProjectionWrite = {
    op: "put",
    table: "threads",
    id: row.streamId,
    threadId: row.streamId,
    sortKey: row.version,
    runOrdinal: null,
    status: "active",
    data: { lastMessage: row.data.n },
  };
  if (row.version % 2 === 1) return [shell];
  return [
    shell,
    {
      op: "put",
      table: "turn_items",
      id: `${row.streamId}#${row.version}`,
      threadId: row.streamId,
      sortKey: row.version,
      runOrdinal: 1,
      status: null,
      data: row.data,
    },
  ];
}

/** Appends per second through a store: commands with ids, receipts and projections. */
export async function appendRate(store: EventStore, all: readonly Row[]): Promise<number> {
  const byClient = Array.from({ length: CLIENTS }, () => [] as Row[]);
  for (const row of all) byClient[Number(row.streamId.slice(7)) % CLIENTS]?.push(row);
  const started = performance.now();
  await Promise.all(
    byClient.map(async (mine) => {
      for (const row of mine) {
        await store.append(row.streamId, row.version - 1, [{ type: row.type, data: row.data }], {
          commandId: `cmd-${row.data.n}`,
          projections: projections(row),
          receipt: { n: row.data.n },
        });
      }
    }),
  );
  return all.length / ((performance.now() - started) / 1_000);
}

async function storeRate(all: Row[]): Promise<number> {
  const store = openSqliteEventStore({ temporary: true });
  try {
    return await appendRate(store, all);
  } finally {
    await store.close();
  }
}

/** The baseline: the same event rows, one INSERT per transaction, straight through the driver. */
function rawRate(all: Row[], dir: string): number {
  const db = openWriter(`${dir}/raw.db`, 5_000);
  applyMigrations(db, loadMigrations());
  const insert = db.prepare(
    `INSERT INTO events (sequence, stream_id, stream_version, type, data, command_id, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const one = db.transaction((row: Row, sequence: number) => {
    insert.run(
      sequence,
      row.streamId,
      row.version,
      row.type,
      JSON.stringify(row.data),
      null,
      new Date().toISOString(),
    );
  });
  const started = performance.now();
  for (const [index, row] of all.entries()) one(row, index + 1);
  const seconds = (performance.now() - started) / 1_000;
  db.close();
  return all.length / seconds;
}

export async function benchAppendRatio(scratchDir: string): Promise<BenchRow[]> {
  const all = rows();
  // Alternate and keep each side's best of two: the machine is shared, so single runs are noisy.
  const raw: number[] = [];
  const store: number[] = [];
  for (let attempt = 0; attempt < 2; attempt += 1) {
    raw.push(rawRate(all, `${scratchDir}/${attempt}`));
    store.push(await storeRate(all));
  }
  const rawBest = Math.max(...raw);
  const storeBest = Math.max(...store);
  const ratio = storeBest / rawBest;
  console.log(
    `append: store ${Math.round(storeBest)} appends/s (with receipts + 1-2 projection rows each), raw driver ${Math.round(rawBest)} single-row tx/s`,
  );
  return [
    {
      name: "append_ratio",
      value: round(ratio, 3),
      unit: "ratio",
      target: ">= 0.25",
      pass: ratio >= 0.25,
    },
  ];
}
