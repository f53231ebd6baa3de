import pg from "pg";
import { openPostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import type { BenchRow } from "../src/bench/measure.ts";
import { round } from "../src/bench/measure.ts";
import { applyPostgresMigrations, loadPostgresMigrations } from "../src/postgres/migrator.ts";
import { appendRate, type Row, rows } from "./append-ratio.ts";
import { benchSize } from "./smoke.ts";

const URL = process.env.SKEIN_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
/** Each raw-insert run stops after this long: at a few hundred fsync-bound commits/s, the full
 * 20k rows would take a minute, and the rate is steady long before. */
const RAW_SECONDS = benchSize(4, 1);

/** Appends per second through the PostgreSQL store, on a fresh schema. */
async function storeRate(all: Row[], schema: string): Promise<number> {
  const store = await openPostgresEventStore({ url: URL, schema });
  try {
    return await appendRate(store, all);
  } finally {
    await store.close();
  }
}

/**
 * The baseline: the same event rows, one single-row INSERT per transaction (autocommit, one
 * round trip each), straight through `pg` on one connection — as append_ratio does with
 * better-sqlite3.
 */
async function rawRate(all: Row[], client: pg.Client, schema: string): Promise<number> {
  await applyPostgresMigrations(client, schema, loadPostgresMigrations());
  const text = `INSERT INTO events (sequence, stream_id, stream_version, type, data, command_id, recorded_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`;
  const started = performance.now();
  const stopAt = started + RAW_SECONDS * 1_000;
  let done = 0;
  for (const row of all) {
    done += 1;
    await client.query({
      name: "raw_insert",
      text,
      values: [
        done,
        row.streamId,
        row.version,
        row.type,
        JSON.stringify(row.data),
        null,
        new Date().toISOString(),
      ],
    });
    if (performance.now() >= stopAt) break;
  }
  return done / ((performance.now() - started) / 1_000);
}

export async function benchPgAppendRatio(): Promise<BenchRow[]> {
  const all = rows();
  const stamp = `${process.pid}_${Date.now().toString(36)}`;
  const schemas: string[] = [];
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  try {
    // Alternate and keep each side's best of two, as append_ratio does on the shared machine.
    const raw: number[] = [];
    const store: number[] = [];
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const rawSchema = `skein_bench_${stamp}_raw${attempt}`;
      const storeSchema = `skein_bench_${stamp}_store${attempt}`;
      schemas.push(rawSchema, storeSchema);
      raw.push(await rawRate(all, client, rawSchema));
      store.push(await storeRate(all, storeSchema));
    }
    const rawBest = Math.max(...raw);
    const storeBest = Math.max(...store);
    const ratio = storeBest / rawBest;
    console.log(
      `pg append: store ${Math.round(storeBest)} appends/s (with receipts + 1-2 projection rows each), raw pg ${Math.round(rawBest)} single-row tx/s`,
    );
    return [
      {
        name: "pg_append_ratio",
        value: round(ratio, 3),
        unit: "ratio",
        target: ">= 0.25",
        pass: ratio >= 0.25,
      },
    ];
  } finally {
    await client.query(schemas.map((s) => `DROP SCHEMA IF EXISTS "${s}" CASCADE;`).join("\n"));
    await client.end();
  }
}
