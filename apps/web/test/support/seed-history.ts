import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { API_DIR, TSX_LOADER } from "./paths.ts";

/** What `apps/api/test/support/seed-ui-history.ts` made (its JSON line). */
export type SeededHistory = {
  projectId: string;
  /** The thread with the asked-for runs, run N's message "Run N asks"; null without runs. */
  longThreadId: string | null;
  threads: number;
  events: number;
  ms: number;
};

/**
 * Writes a large history into an API data dir through the event store's append path (the API's
 * HistorySeeder), before the API opens it: `threads` empty threads titled "Thread 00000"… and,
 * with `runs`, one "Long thread" of that many runs; with `messagesEvery` k, every k-th thread one
 * run asking about its "module NNNNN" (issue 29's message search). Reproducible: sequential ids, fixed titles.
 * Runs in the API package's own process (its database driver), not in the test's.
 */
export async function seedHistory(
  dataDir: string,
  options: { threads?: number; runs?: number; messagesEvery?: number },
): Promise<SeededHistory> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      TSX_LOADER,
      "test/support/seed-ui-history.ts",
      "--data-dir",
      dataDir,
      "--threads",
      String(options.threads ?? 0),
      "--runs",
      String(options.runs ?? 0),
      "--messages-every",
      String(options.messagesEvery ?? 0),
    ],
    { cwd: API_DIR, maxBuffer: 1024 * 1024 },
  );
  const seeded = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as SeededHistory;
  console.info(
    `[apps/web e2e] seeded ${seeded.threads} threads, ${seeded.events} events in ${seeded.ms} ms`,
  );
  return seeded;
}
