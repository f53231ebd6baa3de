/**
 * Issue 28: what the store's appends cost one agent turn. The fixture is a real ACP turn's six
 * appends as the orchestrator made them (RunQueued, RunStarted, ProviderTurnStarted, the items
 * with RunFinished, then the checkpoint's two), events and projection rows included; every round
 * replays it as the next turn of one thread (new ids for the turn's own rows, the thread's rows
 * updated). Two rows:
 * - turn_append_cpu_ratio: CPU per turn through the store ÷ the same events inserted bare (one
 *   transaction per append, raw driver), interleaved in the same run. Most of the difference is
 *   the projection rows and their indexes: each page a commit touches is written to the WAL.
 * - turn_append_wal_pages: WAL pages the turn's commits write, counted on a quiet file. Steady on
 *   any machine, so it catches a write that starts touching more indexes than it needs.
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import type { ProjectionWrite } from "../src/index.ts";
import { openSqliteEventStore } from "../src/index.ts";
import { type BenchRow, median, round } from "../src/bench/measure.ts";
import { openWriter } from "../src/sqlite/connection.ts";
import { applyMigrations, loadMigrations } from "../src/sqlite/migrator.ts";
import { benchSize } from "./smoke.ts";

type TurnAppend = {
  streamId: string;
  events: { type: string; data: unknown }[];
  projections: ProjectionWrite[];
};

const TURN: TurnAppend[] = JSON.parse(
  fs.readFileSync(new URL("./fixtures/acp-turn.json", import.meta.url), "utf8"),
);
/** Rows that stay the same row from turn to turn; every other row is the turn's own. */
const LASTING = new Set(["threads", "provider_threads"]);
const TURNS_PER_BLOCK = benchSize(40, 4);
const BLOCKS = benchSize(6, 1);
const CPU_TARGET = 6;
const PAGES_TARGET = 135;

/** The fixture as turn `n` of the thread: the turn's own rows get ids of their own. */
function turnAt(n: number): TurnAppend[] {
  return TURN.map((append) => ({
    ...append,
    projections: append.projections.map((write) =>
      LASTING.has(write.table) ? write : { ...write, id: `${write.id}-${n}` },
    ),
  }));
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1_000;
};

type Side = { turn(n: number): Promise<void>; close(): Promise<void> };

function storeSide(dir: string) {
  const store = openSqliteEventStore({ dataDir: dir });
  const append = (one: TurnAppend) =>
    store.append(one.streamId, "any", one.events, { projections: one.projections });
  return {
    file: store.file,
    append,
    async turn(n: number) {
      // One after another, as on a run's path: each append waits for the one before.
      for (const one of turnAt(n)) await append(one);
    },
    close: () => store.close(),
  };
}

function rawSide(dir: string): Side {
  const db = openWriter(`${dir}/raw.db`, 5_000);
  applyMigrations(db, loadMigrations());
  const insert = db.prepare(
    `INSERT INTO events (sequence, stream_id, stream_version, type, data, command_id, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  let sequence = 0;
  const one = db.transaction((append: TurnAppend) => {
    const at = new Date().toISOString();
    for (const event of append.events) {
      sequence += 1;
      insert.run(
        sequence,
        append.streamId,
        sequence,
        event.type,
        JSON.stringify(event.data),
        null,
        at,
      );
    }
  });
  return {
    async turn() {
      for (const append of TURN) {
        one(append);
        // The store's appends each resolve on a later turn of the event loop; so do these.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    },
    close: async () => {
      db.close();
    },
  };
}

/** WAL pages a turn's appends write on a thread 20 turns long, the WAL emptied before each. */
async function walPagesPerTurn(dir: string): Promise<number> {
  const side = storeSide(dir);
  const peek = new Database(side.file);
  try {
    for (let n = 0; n < 20; n += 1) await side.turn(n);
    let pages = 0;
    for (const one of turnAt(20)) {
      peek.pragma("wal_checkpoint(TRUNCATE)");
      await side.append(one);
      const [state] = peek.pragma("wal_checkpoint(PASSIVE)") as { log: number }[];
      pages += state?.log ?? Number.NaN;
    }
    return pages;
  } finally {
    peek.close();
    await side.close();
  }
}

export async function benchTurnAppend(scratchDir: string): Promise<BenchRow[]> {
  const store = storeSide(`${scratchDir}/turn-store`);
  const raw = rawSide(`${scratchDir}/turn-raw`);
  const perTurn = { store: [] as number[], raw: [] as number[] };
  let n = 0;
  try {
    // Warm both up, then alternate blocks so the machine's noise falls on both.
    await store.turn(n++);
    await raw.turn(0);
    for (let block = 0; block < BLOCKS; block += 1) {
      for (const [name, side] of [
        ["store", store],
        ["raw", raw],
      ] as const) {
        const before = cpuMs();
        for (let i = 0; i < TURNS_PER_BLOCK; i += 1) await side.turn(n++);
        perTurn[name].push((cpuMs() - before) / TURNS_PER_BLOCK);
      }
    }
  } finally {
    await store.close();
    await raw.close();
  }
  const ratio = median(perTurn.store) / median(perTurn.raw);
  const pages = await walPagesPerTurn(`${scratchDir}/turn-pages`);
  console.log(
    `turn appends: store ${median(perTurn.store).toFixed(2)} ms CPU per turn (6 appends, 24 projection rows), bare event inserts ${median(perTurn.raw).toFixed(2)} ms; ${pages} WAL pages per turn`,
  );
  return [
    {
      name: "turn_append_cpu_ratio",
      value: round(ratio, 2),
      unit: "ratio",
      target: `<= ${CPU_TARGET}`,
      pass: ratio <= CPU_TARGET,
    },
    {
      name: "turn_append_wal_pages",
      value: pages,
      unit: "pages",
      target: `<= ${PAGES_TARGET}`,
      pass: pages <= PAGES_TARGET,
    },
  ];
}
