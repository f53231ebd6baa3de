// The browser suite's large histories, written into a data dir before the API opens it:
// `node --import tsx test/support/seed-ui-history.ts --data-dir DIR [--threads N] [--runs R]`.
// Prints one JSON line (what was made and how long it took). The same arguments always give the
// same streams: the seeder's ids are sequential and every title follows from its number.
import { parseArgs } from "node:util";
import { openEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { HistorySeeder } from "./history-seed.ts";

export type UiHistory = {
  projectId: string;
  /** The thread with `runs` runs, or null when none was asked for. */
  longThreadId: ThreadId | null;
  threads: number;
  events: number;
  ms: number;
};

/** Appends the store may hold queued at once (bounds memory while 100,000 threads are made). */
const MAX_IN_FLIGHT = 2_000;

/** Five digits: "Thread 04242" is a substring of no other title below 100,000. */
export const threadTitle = (n: number) => `Thread ${String(n).padStart(5, "0")}`;

/**
 * Issue 29: with `messagesEvery`, thread N's one run asks this: "module 04242" is said in thread
 * 04242 alone and in no title, so a search for it finds the thread by its message only.
 */
export const threadMessage = (n: number) =>
  `Please look at module ${String(n).padStart(5, "0")} and tidy its tests.`;

/**
 * `threads` empty threads titled `Thread 00000`… (the last one made is the most recent), then,
 * if `runs` > 0, one thread "Long thread" with that many runs, run N's message `Run N asks`.
 * With `messagesEvery` k, every k-th of them (N % k = 0) has one run asking `threadMessage(N)`.
 */
export async function seedUiHistory(
  dataDir: string,
  options: { threads: number; runs: number; messagesEvery?: number },
): Promise<UiHistory> {
  const started = performance.now();
  const store = await openEventStore({ dataDir });
  try {
    const seeder = new HistorySeeder(store);
    const projectId = seeder.createProject("Big project", "/srv/work/big-project");
    for (let i = 0; i < options.threads; i += 1) {
      const threadId = seeder.createThread(threadTitle(i), projectId);
      if (options.messagesEvery && i % options.messagesEvery === 0) {
        seeder.run(threadId, threadMessage(i), { reply: ["Done."] });
      }
      seeder.forget(threadId);
      if (seeder.appendsInFlight > MAX_IN_FLIGHT) await seeder.settle(MAX_IN_FLIGHT / 2);
    }
    let longThreadId: ThreadId | null = null;
    if (options.runs > 0) {
      longThreadId = seeder.createThread("Long thread", projectId);
      for (let n = 1; n <= options.runs; n += 1) {
        seeder.run(longThreadId, `Run ${n} asks`, { reply: [`Run ${n} answers.`] });
      }
    }
    await seeder.flush();
    return {
      projectId,
      longThreadId,
      threads: options.threads + (options.runs > 0 ? 1 : 0),
      events: seeder.events,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    await store.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      "data-dir": { type: "string" },
      threads: { type: "string", default: "0" },
      runs: { type: "string", default: "0" },
      "messages-every": { type: "string", default: "0" },
    },
  });
  const dataDir = values["data-dir"];
  if (dataDir === undefined) throw new Error("--data-dir is required");
  const result = await seedUiHistory(dataDir, {
    threads: Number(values.threads),
    runs: Number(values.runs),
    messagesEvery: Number(values["messages-every"]),
  });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
