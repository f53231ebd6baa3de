import type { EventStore } from "@skein/db";
import type { ProjectId, ThreadId } from "@skein/domain";
import { HistorySeeder, type SeedRunContent } from "../../test/support/history-seed.ts";
import { HistoryText } from "./history-text.ts";
import { SeededRandom } from "./seeded-random.ts";

export type GenerateOptions = {
  threads: number;
  /** Events to aim for in all (the result lands within a run's worth per thread of it). */
  events: number;
  seed: number;
  /** Projects the threads are spread over; default one per 10,000 threads (at least 2). */
  projects?: number;
  /**
   * Appends the store may hold queued at once: bounds memory, and on PostgreSQL the size of
   * what one group-commit transaction is given. Default 2,000.
   */
  maxInFlight?: number;
  onProgress?: (progress: GenerateProgress) => void;
};

export type GenerateProgress = { threads: number; events: number; elapsedMs: number };

export type GenerateStats = GenerateProgress & {
  projects: number;
  forks: number;
  /** Forks whose source is itself a fork. */
  forksOfForks: number;
  deepestFork: number;
  /** A thread at the end of the deepest fork chain (null without forks). */
  deepestForkId: ThreadId | null;
  runs: number;
  toolCalls: number;
  /** Characters of tool output streamed in all. */
  outputChars: number;
  /** The thread with the most events, and that count. */
  largestThread: { threadId: ThreadId; events: number };
};

/** Share of threads that are forks; a fork's source may itself be a fork. */
const FORK_SHARE = 0.08;
/** Recent threads kept in memory as fork sources (the rest are forgotten once written). */
const FORK_POOL = 24;
const RUNS_WITH_TOOLS = 0.35;
/** One thread's share of events: median well under the mean, a long tail of big threads. */
const SIZE_SIGMA = 1.6;
const MAX_THREAD_EVENTS = 60_000;
const OUTPUT_MEDIAN_CHARS = 1_500;
const OUTPUT_MAX_CHARS = 64 * 1024;
const OUTPUT_CHUNK_CHARS = 8 * 1024;

type Source = { threadId: ThreadId; depth: number };

/**
 * Builds a large, realistic history through the store's public append path: projects, threads
 * of very different lengths (most short, a few with thousands of runs), runs with tool calls and
 * long outputs, forks and forks of forks. Every choice comes from `seed`, so the same options
 * give the same streams (recorded times aside, which are the store's clock).
 */
export async function generateHistory(
  store: EventStore,
  options: GenerateOptions,
): Promise<GenerateStats> {
  const started = performance.now();
  const random = new SeededRandom(options.seed);
  const text = new HistoryText(random);
  const seeder = new HistorySeeder(store);
  const maxInFlight = options.maxInFlight ?? 2_000;
  const projectCount = options.projects ?? Math.max(2, Math.round(options.threads / 10_000));
  const projects: ProjectId[] = [];
  for (let i = 0; i < projectCount; i += 1) {
    projects.push(seeder.createProject(`Project ${i + 1}`, `/srv/work/project-${i + 1}`));
  }
  const stats: GenerateStats = {
    threads: 0,
    events: 0,
    elapsedMs: 0,
    projects: projectCount,
    forks: 0,
    forksOfForks: 0,
    deepestFork: 0,
    deepestForkId: null,
    runs: 0,
    toolCalls: 0,
    outputChars: 0,
    largestThread: { threadId: "" as ThreadId, events: 0 },
  };
  const pool: Source[] = [];
  const depthOf = new Map<ThreadId, number>();

  // Forks are forked again more often than other threads (one tries several variants of an
  // idea), so chains several forks deep appear even in a small history.
  const forkSource = (): Source | null => {
    if (pool.length === 0) return null;
    const forks = pool.filter((entry) => entry.depth > 0);
    return forks.length > 0 && random.chance(0.5) ? random.pick(forks) : random.pick(pool);
  };
  /** Events per run so far (a run's size varies with its tool calls). */
  let runEvents = 0;
  let runsMade = 0;
  const perRun = () => (runsMade > 0 ? runEvents / runsMade : 14);

  const runContent = (): SeedRunContent => {
    const tools: NonNullable<SeedRunContent["tools"]>[number][] = [];
    if (random.chance(RUNS_WITH_TOOLS)) {
      const count = random.int(1, 3);
      for (let t = 0; t < count; t += 1) {
        const chars = Math.min(OUTPUT_MAX_CHARS, random.logNormal(OUTPUT_MEDIAN_CHARS, 1.3));
        const output = text.output(Math.max(40, Math.round(chars)), OUTPUT_CHUNK_CHARS);
        stats.outputChars += output.reduce((sum, delta) => sum + delta.length, 0);
        tools.push({ command: text.command(), output, exitCode: random.chance(0.1) ? 1 : 0 });
      }
      stats.toolCalls += count;
    }
    const reply: string[] = [];
    for (let d = random.int(1, 4); d > 0; d -= 1) reply.push(`${text.words(random.int(4, 40))} `);
    return { reply, tools };
  };

  for (let i = 0; i < options.threads; i += 1) {
    const before = seeder.events;
    let threadId: ThreadId;
    const source = random.chance(FORK_SHARE) ? forkSource() : null;
    if (source) {
      threadId = await seeder.fork(source.threadId);
      const depth = source.depth + 1;
      depthOf.set(threadId, depth);
      stats.forks += 1;
      if (depth > 1) stats.forksOfForks += 1;
      if (depth > stats.deepestFork) {
        stats.deepestFork = depth;
        stats.deepestForkId = threadId;
      }
    } else {
      threadId = seeder.createThread(text.title(i), random.pick(projects));
    }
    // What is left, spread over the threads still to make, scaled by this thread's draw (whose
    // mean is 1); a fractional run count is rounded at random so that the sum stays on target.
    const mean = (options.events - seeder.events) / (options.threads - i);
    const draw = random.logNormal(1, SIZE_SIGMA) / Math.exp((SIZE_SIGMA * SIZE_SIGMA) / 2);
    const wanted = Math.min(MAX_THREAD_EVENTS, Math.max(0, mean * draw)) / perRun();
    const runTarget = Math.floor(wanted) + (random.chance(wanted % 1) ? 1 : 0);
    let runs = 0;
    while (runs < runTarget || (source && runs === 0)) {
      const eventsBefore = seeder.events;
      seeder.run(threadId, text.words(random.int(3, 60)), runContent());
      runEvents += seeder.events - eventsBefore;
      runsMade += 1;
      runs += 1;
      // A long thread is written as it grows, not held whole in memory.
      if (runs % 500 === 0) await seeder.settle(maxInFlight);
    }
    stats.runs += runs;
    const events = seeder.events - before;
    if (events > stats.largestThread.events) stats.largestThread = { threadId, events };
    if (runs > 0) pool.push({ threadId, depth: depthOf.get(threadId) ?? 0 });
    else seeder.forget(threadId);
    depthOf.delete(threadId);
    if (pool.length > FORK_POOL) {
      const evicted = pool.splice(random.int(0, pool.length - 1), 1)[0];
      if (evicted) seeder.forget(evicted.threadId);
    }
    await seeder.settle(maxInFlight);
    stats.threads = i + 1;
    if (options.onProgress && stats.threads % 10_000 === 0) {
      options.onProgress({
        threads: stats.threads,
        events: seeder.events,
        elapsedMs: performance.now() - started,
      });
    }
  }
  await seeder.flush();
  stats.events = seeder.events;
  stats.elapsedMs = performance.now() - started;
  return stats;
}
