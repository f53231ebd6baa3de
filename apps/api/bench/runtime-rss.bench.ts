/**
 * Issue 34 row runtime_rss_mib_10k_threads (B21): the resident memory of every runtime process
 * (each `codex app-server` Skein opened, and anything they spawned) after touching many threads
 * and then leaving the server idle.
 * - touching a thread: a new thread through Skein and one message on it (real app-server,
 *   instant scripted model), one after another; the runtime loads each provider thread;
 * - then idle: nothing is sent for the idle window, in which the SessionManager may recycle
 *   runtimes past its bounds (settings below), and the RSS is read at its end.
 * Also written: the most threads the live runtimes held loaded at any sample while touching
 * (runtime_loaded_threads_peak, against the per-runtime bound × the live-runtime bound); the RSS
 * at that time is printed.
 *
 * Sizes (env, to try it smaller; the row's name says what the full run measures):
 * SKEIN_BENCH_RSS_THREADS (10,000), SKEIN_BENCH_RSS_IDLE_MS (60,000),
 * SKEIN_BENCH_RSS_RECYCLE_MS (the recycle idle time, 30,000 as in the server's default),
 * SKEIN_BENCH_RSS_MAX_THREADS (200, the server's default SKEIN_RUNTIME_MAX_THREADS).
 */
import { readdirSync, readFileSync } from "node:fs";
import { DEFAULT_RUNTIME_LIMITS } from "../src/orchestrator/runtime/session-manager.ts";
import { createCodexSkeinHarness } from "../test/support/codex-skein-harness.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { sleep } from "./paired-turns.ts";

const numberFromEnv = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0`);
  return value;
};

const THREADS = numberFromEnv("SKEIN_BENCH_RSS_THREADS", benchSize(10_000, 6));
const IDLE_MS = numberFromEnv("SKEIN_BENCH_RSS_IDLE_MS", benchSize(60_000, 1_500));
const RECYCLE_MS = numberFromEnv(
  "SKEIN_BENCH_RSS_RECYCLE_MS",
  benchSize(DEFAULT_RUNTIME_LIMITS.recycleIdleMs, 1_000),
);
const MAX_THREADS = numberFromEnv(
  "SKEIN_BENCH_RSS_MAX_THREADS",
  benchSize(DEFAULT_RUNTIME_LIMITS.maxLoadedThreads, 2),
);
const MAX_RUNTIMES = DEFAULT_RUNTIME_LIMITS.maxRuntimes;
const TARGET_MIB = 400;
/** Samples while touching: every this many threads. */
const SAMPLE_EVERY = benchSize(100, 2);

/** Every process below `root` (children, their children, …), from /proc. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      // The parent pid is the 2nd field after the parenthesised command name.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // Exited while listing.
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function rssKib(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

type Sessions = ReadonlyArray<{ pid: number | undefined; isAlive(): boolean }>;

/** The runtime processes: every live app-server Skein opened, and every process below it. */
function runtimePids(sessions: Sessions): number[] {
  const roots = sessions.flatMap((s) => (s.isAlive() && s.pid !== undefined ? [s.pid] : []));
  return roots.flatMap((pid) => [pid, ...descendants(pid)]);
}

const rssMib = (pids: number[]) => pids.reduce((sum, pid) => sum + rssKib(pid), 0) / 1024;

/** Which processes the RSS is made of: MiB per command name. */
function rssByCommand(pids: number[]): string {
  const by = new Map<string, number>();
  for (const pid of pids) {
    let name = "?";
    try {
      name = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
    } catch {
      // Exited meanwhile.
    }
    by.set(name, (by.get(name) ?? 0) + rssKib(pid) / 1024);
  }
  return [...by].map(([name, mib]) => `${name} ${mib.toFixed(1)}`).join(", ") || "none";
}

async function main() {
  const h = await createCodexSkeinHarness({
    runtimeLimits: {
      maxLoadedThreads: MAX_THREADS,
      maxRuntimes: MAX_RUNTIMES,
      recycleIdleMs: RECYCLE_MS,
    },
  });
  let peakLoaded = 0;
  let touchingRss = 0;
  try {
    for (let i = 0; i < THREADS; i += 1) {
      const threadId = await h.createThread();
      const { run } = await h.run(threadId, `touch ${i}`);
      if (run.status !== "completed") throw new Error(`thread ${i}: run ${run.status}`);
      if ((i + 1) % SAMPLE_EVERY === 0 || i === THREADS - 1) {
        const { loadedThreads } = h.orchestrator.runtimeStats();
        if (loadedThreads >= peakLoaded) {
          peakLoaded = loadedThreads;
          touchingRss = rssMib(runtimePids(h.codexSessions));
        }
        if ((i + 1) % (SAMPLE_EVERY * 10) === 0) {
          console.log(
            `${i + 1} threads: ${loadedThreads} loaded, ${rssMib(runtimePids(h.codexSessions)).toFixed(0)} MiB`,
          );
        }
      }
    }
    await sleep(IDLE_MS);
    const idlePids = runtimePids(h.codexSessions);
    const idleRss = rssMib(idlePids);
    const stats = h.orchestrator.runtimeStats();
    console.log(
      `${THREADS} threads touched, then ${IDLE_MS} ms idle (recycle after ${RECYCLE_MS} ms idle, ` +
        `≤ ${MAX_THREADS} threads per runtime, ≤ ${MAX_RUNTIMES} runtimes): ${idleRss.toFixed(1)} ` +
        `MiB in ${stats.runtimes} runtimes holding ${stats.loadedThreads} threads; while ` +
        `touching at most ${peakLoaded} threads loaded (${touchingRss.toFixed(1)} MiB then); ` +
        `processes now (MiB): ${rssByCommand(idlePids)}`,
    );
    const loadedBound = MAX_THREADS * MAX_RUNTIMES;
    writeBenchRows("runtime-rss.json", [
      {
        name: "runtime_rss_mib_10k_threads",
        value: +idleRss.toFixed(1),
        unit: "MiB",
        target: `<= ${TARGET_MIB}`,
        pass: idleRss <= TARGET_MIB,
      },
      {
        name: "runtime_loaded_threads_peak",
        value: peakLoaded,
        unit: "threads",
        target: `<= ${loadedBound}`,
        pass: peakLoaded <= loadedBound,
      },
    ]);
  } finally {
    await h.close();
  }
}

await main();
