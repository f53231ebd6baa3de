/**
 * Why the hot reads stay on the driver (issue 27 item 6): each read model's query timed through
 * the store's driver and through the generated Prisma client on the same data, alternately in
 * one run, as a ratio (Prisma ÷ driver; > 1 is slower). Reported, not targets: a read moves to
 * Prisma when its ratio costs nothing that matters (cold reads: projects, the lease list).
 */
import pg from "pg";
import type { EventStore, ProjectionQuery } from "../src/index.ts";
import { openSqliteEventStore } from "../src/index.ts";
import type { BenchRow } from "../src/bench/measure.ts";
import { median, round } from "../src/bench/measure.ts";
import { openPostgresEventStore } from "../src/postgres/postgres-event-store.ts";
import { connectPgPrisma, connectSqlitePrisma } from "../src/prisma/clients.ts";
import type { PrismaLike } from "../src/prisma/prisma-snapshots.ts";
import type { ProjectionWrite } from "../src/projection-types.ts";
import { benchSize } from "./smoke.ts";

const URL = process.env.SKEIN_BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/test";
const THREADS = benchSize(5_000, 100);
const ITEMS = benchSize(5_000, 100);
const ROUNDS = benchSize(60, 3);

type ReceiptClient = { commandReceipt: { findUnique(args: object): Promise<unknown> } };

function seedWrites(batch: number): ProjectionWrite[] {
  const writes: ProjectionWrite[] = [];
  for (let n = batch * 100; n < (batch + 1) * 100; n += 1) {
    if (n < THREADS) {
      writes.push({
        op: "put",
        table: "threads",
        id: `t${n}`,
        threadId: `t${n}`,
        sortKey: 0,
        runOrdinal: null,
        status: "idle",
        data: {
          id: `t${n}`,
          projectId: `p${n % 4}`,
          title: `Thread ${n} about ${n % 7 === 0 ? "caching" : "parsing"}`,
          lastActivityAt: new Date(Date.UTC(2026, 0, 1) + n * 1_000).toISOString(),
          archivedAt: null,
          deletedAt: null,
        },
      });
    }
    if (n < ITEMS) {
      writes.push({
        op: "put",
        table: "turn_items",
        id: `i${n}`,
        threadId: "t0",
        sortKey: n,
        runOrdinal: Math.floor(n / 10),
        status: null,
        data: { n, text: "an item of a long thread ".repeat(8) },
      });
    }
  }
  return writes;
}

async function seed(store: EventStore): Promise<void> {
  const batches = Math.ceil(Math.max(THREADS, ITEMS) / 100);
  for (let batch = 0; batch < batches; batch += 1) {
    await store.append(`seed-${batch}`, 0, [{ type: "Seeded", data: {} }], {
      commandId: `cmd-${batch}`,
      receipt: { batch },
      projections: [
        ...seedWrites(batch),
        ...(batch < 20
          ? [
              {
                op: "put" as const,
                table: "projects" as const,
                id: `p${batch}`,
                threadId: null,
                sortKey: batch,
                runOrdinal: null,
                status: null,
                data: { name: `project ${batch}` },
              },
            ]
          : []),
      ],
    });
  }
}

/** Median of each side over alternating rounds, so the machine's noise hits both alike. */
async function ratio(driver: () => Promise<unknown>, prisma: () => Promise<unknown>) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 3; i += 1) await Promise.all([driver(), prisma()]);
  for (let i = 0; i < ROUNDS; i += 1) {
    let started = performance.now();
    await driver();
    a.push(performance.now() - started);
    started = performance.now();
    await prisma();
    b.push(performance.now() - started);
  }
  return { driverMs: median(a), prismaMs: median(b), ratio: median(b) / median(a) };
}

const READS: Record<string, (q: ProjectionQuery) => Promise<unknown>> = {
  shells_page: (q) => q.threadPage({ visibility: "active", limit: 101 }),
  shells_search: (q) => q.threadPage({ visibility: "active", query: "caching", limit: 101 }),
  detail_window: (q) => q.list("turn_items", { threadId: "t0", minRunOrdinal: ITEMS / 10 - 50 }),
  thread_get: (q) => q.get("threads", "t1"),
  projects: (q) => q.list("projects"),
};

async function measure(prefix: string, store: EventStore, prisma: PrismaLike) {
  await seed(store);
  const rows: BenchRow[] = [];
  const report = (name: string, value: number, note: string) => {
    console.log(`${prefix}prisma_${name}_ratio ${round(value, 2)} (${note})`);
    rows.push({
      name: `${prefix}prisma_${name}_ratio`,
      value: round(value, 3),
      unit: "ratio",
      target: "report",
      pass: true,
    });
  };
  for (const [name, read] of Object.entries(READS)) {
    const r = await ratio(
      () => store.snapshot(read),
      () => store.snapshot(read, { through: "prisma" }),
    );
    report(name, r.ratio, `driver ${round(r.driverMs, 3)} ms, Prisma ${round(r.prismaMs, 3)} ms`);
  }
  const receipts = prisma as unknown as ReceiptClient;
  const r = await ratio(
    () => store.findReceipt("cmd-3"),
    () => receipts.commandReceipt.findUnique({ where: { commandId: "cmd-3" } }),
  );
  report(
    "receipt",
    r.ratio,
    `driver ${round(r.driverMs, 3)} ms, Prisma ${round(r.prismaMs, 3)} ms`,
  );
  return rows;
}

export async function benchPrismaReads(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const sqlite = openSqliteEventStore({ temporary: true });
  const sqlitePrisma = await connectSqlitePrisma(sqlite.file, 5_000);
  try {
    rows.push(...(await measure("", sqlite, sqlitePrisma)));
  } finally {
    await sqlitePrisma.$disconnect();
    await sqlite.close();
  }
  const schema = `skein_bench_prisma_${process.pid}_${Date.now().toString(36)}`;
  const store = await openPostgresEventStore({ url: URL, schema });
  const pool = new pg.Pool({ connectionString: URL, options: `-c search_path=${schema}`, max: 1 });
  const pgPrisma = await connectPgPrisma(pool, schema);
  try {
    rows.push(...(await measure("pg_", store, pgPrisma)));
  } finally {
    await pgPrisma.$disconnect();
    await pool.end();
    await store.close();
    const admin = new pg.Client({ connectionString: URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
  return rows;
}
