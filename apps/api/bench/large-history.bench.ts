/**
 * Issue 20 rows on a large generated history (item 4: start-up and memory independent of it).
 * The data dir is built once by the history generator (1.5M events over 100k threads by default,
 * kept in the temp dir and reused while its parameters match) and then opened by the real API
 * process, the built `dist/main.js` that `pnpm start` runs.
 *
 * - startup_ms: spawn → first `health` answer on that data dir (median of 3 starts), target
 *   ≤ 1,500; startup_empty_ms is the same on an empty data dir, for comparison.
 * - rss_mib_large: the API's resident memory after starting on it and serving 100 watch
 *   subscribers (shells and details of the largest threads) their snapshots, target ≤ 300.
 * - bytes_per_event: the database's size on disk ÷ its events (reported).
 * - free_port_ratio: the port a new thread's first run takes (issue 26), chosen on that history
 *   ÷ on the empty data dir (medians of 21), target ≤ 3: read from the ports held, not from
 *   every thread.
 * - usage_view_ratio: the usage view of the last 30 days (B20; the generated history is older)
 *   on that history ÷ on the empty data dir, target ≤ 3: it reads the threads active in its days,
 *   not every run ever recorded.
 * - subagent_children_ratio: the lookup deleting a thread makes for its sub-agent children, on
 *   that history ÷ empty, target ≤ 3: an index read, not every thread's row.
 *
 * Scale down with SKEIN_BENCH_LARGE_EVENTS / SKEIN_BENCH_LARGE_THREADS; SKEIN_BENCH_LARGE_DIR
 * names where the generated data dir lives. SKEIN_BENCH_LARGE_PG=1 puts the history in a
 * schema of the test PostgreSQL database instead (kept and reused too) and prefixes the rows
 * `pg_`; SKEIN_BENCH_LARGE_SCHEMA names that schema.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type EventStore, openEventStore } from "@skein/db";
import { createSkeinClient } from "../src/client.ts";
import { connectAdmin, scratchSchema, TEST_DATABASE_URL } from "../test/support/postgres.ts";
import { type BenchRow, benchSize, writeBenchRows } from "./bench-rows.ts";
import { type GenerateStats, generateHistory } from "./generate/history-generator.ts";
import { freePort } from "../src/orchestrator/workspaces/thread-ports.ts";
import { readUsageSummary } from "../src/read-models/usage-summary.ts";

const EVENTS = Number(process.env.SKEIN_BENCH_LARGE_EVENTS ?? benchSize(1_500_000, 3_000));
const THREADS = Number(process.env.SKEIN_BENCH_LARGE_THREADS ?? Math.round(EVENTS / 15));
const SEED = 1;
const SUBSCRIBERS = benchSize(100, 5);
const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NAME = `skein_bench_large_${EVENTS}_${THREADS}_${SEED}`;
const PG_URL =
  process.env.SKEIN_BENCH_LARGE_PG === "1"
    ? withSchema(TEST_DATABASE_URL, process.env.SKEIN_BENCH_LARGE_SCHEMA ?? NAME)
    : null;
const DATA_DIR =
  process.env.SKEIN_BENCH_LARGE_DIR ?? path.join(tmpdir(), PG_URL ? `${NAME}_pg` : NAME);
const MARKER = path.join(DATA_DIR, "generated.json");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("schema", schema);
  return parsed.toString();
}

function row(name: string, value: number, unit: string, target: number | null): BenchRow {
  return {
    name: PG_URL ? `pg_${name}` : name,
    value: +value.toFixed(2),
    unit,
    target: target === null ? "report" : `<= ${target}`,
    pass: target === null || value <= target,
  };
}

async function dropSchema(url: string): Promise<void> {
  const schema = new URL(url).searchParams.get("schema") ?? "public";
  const admin = await connectAdmin();
  try {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

/**
 * The generated history, made now unless a complete one with these parameters is there (the
 * marker is written only after a whole generation).
 */
async function generatedDataDir(): Promise<GenerateStats> {
  if (existsSync(MARKER)) return JSON.parse(readFileSync(MARKER, "utf8")) as GenerateStats;
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  if (PG_URL) await dropSchema(PG_URL);
  const store: EventStore = await openEventStore(PG_URL ? { url: PG_URL } : { dataDir: DATA_DIR });
  try {
    const stats = await generateHistory(store, {
      threads: THREADS,
      events: EVENTS,
      seed: SEED,
      onProgress: ({ threads, events, elapsedMs }) =>
        console.log(
          `generating: ${threads} threads, ${events} events, ${(elapsedMs / 1000) | 0} s`,
        ),
    });
    console.log(`generated ${stats.events} events in ${(stats.elapsedMs / 1000).toFixed(1)} s`);
    await store.close();
    writeFileSync(MARKER, JSON.stringify(stats));
    return stats;
  } catch (error) {
    await store.close();
    throw error;
  }
}

type Api = { child: ChildProcess; url: string; startupMs: number };

/**
 * Starts dist/main.js on a data dir (and database) and waits for its first `health` answer. A
 * random port can be taken meanwhile (the range meets the machine's ephemeral ports): a start
 * refused for a port in use tries another one, a few times.
 */
async function startApi(dataDir: string, databaseUrl: string | null): Promise<Api> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startApiOnce(dataDir, databaseUrl);
    } catch (error) {
      if (attempt >= 3 || !/is in use/.test(String(error))) throw error;
    }
  }
}

async function startApiOnce(dataDir: string, databaseUrl: string | null): Promise<Api> {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, ["dist/main.js"], {
    cwd: API_DIR,
    env: {
      ...process.env,
      SKEIN_API_PORT: String(port),
      SKEIN_DATA_DIR: dataDir,
      ...(databaseUrl ? { SKEIN_DATABASE_URL: databaseUrl } : {}),
      SKEIN_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const client = createSkeinClient({ url });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}:\n${stderr}`);
    try {
      await client.health.query();
      return { child, url, startupMs: performance.now() - started };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    if (performance.now() - started > 120_000) throw new Error(`API did not start:\n${stderr}`);
  }
}

async function stopApi(api: Api): Promise<void> {
  const exited = new Promise((resolve) => api.child.once("exit", resolve));
  api.child.kill("SIGTERM");
  await exited;
}

/**
 * The median of a few starts; the last start's API is left running for the caller, who measures
 * its memory next: each start of the API costs seconds, and a just-started one is what the
 * memory row wants anyway.
 */
async function medianStartup(
  dataDir: string,
  databaseUrl: string | null,
): Promise<{ ms: number; api: Api }> {
  const times: number[] = [];
  for (let i = 0; ; i += 1) {
    const api = await startApi(dataDir, databaseUrl);
    times.push(api.startupMs);
    if (i + 1 >= benchSize(3, 1)) return { ms: median(times), api };
    await stopApi(api);
  }
}

function rssMib(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kib / 1024;
}

/** 100 subscribers: half watch the thread list, half the details of the largest threads. */
async function rssWithSubscribers(api: Api): Promise<number> {
  const client = createSkeinClient({ url: api.url });
  const { threads } = await client.thread.shells.query({ limit: 50 });
  const unsubscribers: (() => void)[] = [];
  let ready = 0;
  await new Promise<void>((resolve, reject) => {
    const onData = ({ data }: { data: { type: string } }) => {
      if (data.type !== "snapshot") return;
      ready += 1;
      if (ready === SUBSCRIBERS) resolve();
    };
    for (let i = 0; i < SUBSCRIBERS; i += 1) {
      const handlers = { onData, onError: reject };
      const subscription =
        i % 2 === 0
          ? client.thread.watchShells.subscribe(undefined, handlers)
          : client.thread.watchDetail.subscribe(
              { threadId: threads[(i >> 1) % threads.length]?.id ?? "" },
              handlers,
            );
      unsubscribers.push(() => subscription.unsubscribe());
    }
  });
  // Let the snapshots' garbage age a little, as a server that has been up a moment would (the
  // smoke's figure means nothing, so it does not wait long).
  await new Promise((resolve) => setTimeout(resolve, benchSize(2_000, 100)));
  const rss = rssMib(api.child.pid ?? 0);
  for (const unsubscribe of unsubscribers) unsubscribe();
  return rss;
}

/** Median ms of each read below on the store in `url` or `dataDir` (21 of each). */
async function storeReadMs(
  where: { url: string } | { dataDir: string },
): Promise<{ port: number; usage: number; children: number }> {
  const store = await openEventStore(where);
  const median = async (read: () => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const started = performance.now();
      await read();
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[10]!;
  };
  try {
    const now = new Date();
    return {
      port: await median(() => freePort(store, { from: 3100, to: 3999 })),
      usage: await median(() => store.snapshot((q) => readUsageSummary(q, 30, now))),
      children: await median(() => store.snapshot((q) => q.subagentChildren("thr_bench"))),
    };
  } finally {
    await store.close();
  }
}

/** The database's size on disk: SQLite's file and WAL, or every relation of the schema. */
async function databaseBytes(dataDir: string): Promise<number> {
  if (PG_URL) {
    const schema = new URL(PG_URL).searchParams.get("schema") ?? "public";
    const admin = await connectAdmin();
    try {
      const { rows } = await admin.query<{ bytes: string }>(
        `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
        [schema],
      );
      return Number(rows[0]?.bytes ?? 0);
    } finally {
      await admin.end();
    }
  }
  let bytes = 0;
  for (const suffix of ["", "-wal"]) {
    const file = path.join(dataDir, `skein.db${suffix}`);
    if (existsSync(file)) bytes += statSync(file).size;
  }
  return bytes;
}

async function main() {
  const begun = performance.now();
  const stats = await generatedDataDir();
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: API_DIR,
    stdio: "ignore",
  });
  const emptyDir = path.join(tmpdir(), `skein-bench-empty-${process.pid}`);
  mkdirSync(emptyDir, { recursive: true });
  const emptySchema = PG_URL ? await scratchSchema() : null;
  let emptyMs: number;
  let emptyReads: Awaited<ReturnType<typeof storeReadMs>>;
  try {
    const empty = await medianStartup(emptyDir, emptySchema?.url ?? null);
    await stopApi(empty.api);
    emptyMs = empty.ms;
    emptyReads = await storeReadMs(emptySchema ? { url: emptySchema.url } : { dataDir: emptyDir });
  } finally {
    rmSync(emptyDir, { recursive: true, force: true });
    await emptySchema?.drop();
  }
  const { ms: startupMs, api } = await medianStartup(DATA_DIR, PG_URL);
  let rss: number;
  try {
    rss = await rssWithSubscribers(api);
  } finally {
    await stopApi(api);
  }
  console.log(`large history: ${stats.events} events, ${stats.threads} threads`);
  const bytes = await databaseBytes(DATA_DIR);
  const largeReads = await storeReadMs(PG_URL ? { url: PG_URL } : { dataDir: DATA_DIR });
  for (const read of ["port", "usage", "children"] as const) {
    console.log(
      `${read}: ${largeReads[read].toFixed(3)} ms on it, ${emptyReads[read].toFixed(3)} ms empty`,
    );
  }
  writeBenchRows(PG_URL ? "api-large-history-pg.json" : "api-large-history.json", [
    row("startup_ms", startupMs, "ms", 1_500),
    row("startup_empty_ms", emptyMs, "ms", null),
    row("rss_mib_large", rss, "MiB", 300),
    row("bytes_per_event", bytes / stats.events, "bytes", null),
    row("free_port_ratio", largeReads.port / emptyReads.port, "ratio", 3),
    row("usage_view_ratio", largeReads.usage / emptyReads.usage, "ratio", 3),
    row("subagent_children_ratio", largeReads.children / emptyReads.children, "ratio", 3),
  ]);
  console.log(`large history bench took ${((performance.now() - begun) / 1000).toFixed(1)} s`);
}

await main();
