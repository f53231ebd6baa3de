import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** What one checkpoint did: the WAL's frames and how many of them are now in the database file. */
export type CheckpointReport = { log: number; checkpointed: number };

/** Commits between checkpoint requests; SQLite's own default waits for 1000 WAL pages. */
const COMMITS_PER_CHECKPOINT = 8;

// fileMustExist: a data file deleted under the store is the guard's to report; opening it here would
// create an empty one in its place.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs, fileMustExist: true });
parentPort.on("message", (message) => {
  if (message === "close") {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [state] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ log: state.log, checkpointed: state.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
});
`;

/**
 * Issue 28: the WAL is copied into the database file by a connection on a worker thread, not by
 * the commit that happens to cross SQLite's threshold. A checkpoint writes the pages of a
 * thousand WAL frames and waits for two fsyncs (5-9 ms on this machine's disk), and with
 * `wal_autocheckpoint` it ran inside an append, blocking the event loop: one agent turn in six
 * paid for it. A PASSIVE checkpoint never blocks the writer, which keeps appending to the WAL
 * meanwhile; once everything is copied, SQLite starts the WAL over at the next commit.
 */
export type WalCheckpointerOptions = {
  file: string;
  busyTimeoutMs: number;
  onReport?: (report: CheckpointReport) => void;
  /** The worker could not checkpoint; the caller lets the writer do it again. */
  onFailure: (error: string) => void;
  /** Tests: the driver module the worker loads. */
  driver?: string;
};

export class WalCheckpointer {
  /** Started with the first checkpoint, so opening a store costs no thread. */
  private worker: Worker | null = null;
  private commits = 0;
  private running = false;
  private failed = false;
  private closing = false;

  constructor(private readonly options: WalCheckpointerOptions) {}

  /** Called after each committed batch; asks for a checkpoint every few commits. */
  committed(): void {
    this.commits += 1;
    if (this.running || this.failed || this.commits < COMMITS_PER_CHECKPOINT) return;
    this.commits = 0;
    this.running = true;
    this.started().postMessage("checkpoint");
  }

  /** Lets the worker close its connection and end (a checkpoint under way finishes first). */
  async close(): Promise<void> {
    this.closing = true;
    const worker = this.worker;
    if (worker === null) return;
    if (this.failed) {
      worker.ref();
      await worker.terminate();
      return;
    }
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    // Unreferenced, it would let the process end before its exit is seen.
    worker.ref();
    worker.postMessage("close");
    await exited;
  }

  private started(): Worker {
    if (this.worker !== null) return this.worker;
    const { file, busyTimeoutMs } = this.options;
    const driver = this.options.driver ?? createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER, { eval: true, workerData: { driver, file, busyTimeoutMs } });
    // Never keeps the process alive: the writer's own close checkpoints what is left.
    worker.unref();
    worker.on("message", (message: CheckpointReport | { error: string }) => {
      this.running = false;
      if ("error" in message) this.fail(message.error);
      else this.options.onReport?.(message);
    });
    worker.on("error", (error) => this.fail(String(error)));
    worker.on("exit", (code) => {
      if (!this.closing) this.fail(`the checkpoint worker exited (code ${code})`);
    });
    this.worker = worker;
    return worker;
  }

  private fail(error: string): void {
    if (this.failed) return;
    this.failed = true;
    this.options.onFailure(error);
  }
}
