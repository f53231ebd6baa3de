import type { AppendOutcome } from "./append-outcome.ts";
import type { AppendResult, StoredEvent } from "./event-store.ts";
import type { PreparedAppend } from "./prepare-append.ts";

type Pending = {
  append: PreparedAppend;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

export type GroupCommitOptions = {
  /** Writes one batch in one transaction (SQLite answers synchronously, PostgreSQL does not). */
  commit: (
    batch: readonly PreparedAppend[],
    recordedAt: string,
  ) => AppendOutcome[] | Promise<AppendOutcome[]>;
  /** Called with each committed batch's events, in sequence order, before its appends resolve. */
  onCommitted: (events: StoredEvent[]) => void | Promise<void>;
  maxBatchSize: number;
  /**
   * Most serialized bytes (events and projection rows) one batch may carry; a single larger
   * append still goes alone. Default: no bound beyond `maxBatchSize`.
   */
  maxBatchBytes?: number;
  now: () => Date;
};

/** What an append puts on the wire: its events' and row writes' JSON (ids and keys are small). */
export function appendBytes(append: PreparedAppend): number {
  let bytes = 0;
  for (const event of append.events) bytes += event.json.length + 64;
  for (const write of append.projections)
    bytes += (write.op === "put" ? write.json.length : 0) + 64;
  return bytes;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Queues appends and writes them in one transaction per batch, one batch in flight at a time, for
 * both stores. The first append after a quiet spell waits one setImmediate, i.e. until every append
 * issued in the current round of callbacks and microtasks (typically: all the awaiting writers the
 * previous batch just resumed) has queued, so concurrent callers share a commit. Appends issued
 * while a batch is written form the next one; between oversized batches the loop yields to I/O
 * instead of writing them back to back.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly options: GroupCommitOptions) {}

  enqueue(append: PreparedAppend): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ append, resolve, reject });
      this.running ??= nextTurn().then(() => this.flushAll());
    });
  }

  /** Resolves once everything queued so far has been written (used by close). */
  async drain(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async flushAll(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.commitNext();
        if (this.queue.length > 0) await nextTurn();
      }
    } finally {
      this.running = null;
    }
  }

  /** The next batch: at most maxBatchSize appends and (past its first) maxBatchBytes. */
  private takeBatch(): Pending[] {
    const limit = this.options.maxBatchBytes;
    if (limit === undefined) return this.queue.splice(0, this.options.maxBatchSize);
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && count < this.options.maxBatchSize) {
      bytes += appendBytes(this.queue[count]!.append);
      if (count > 0 && bytes > limit) break;
      count += 1;
    }
    return this.queue.splice(0, count);
  }

  private async commitNext(): Promise<void> {
    const batch = this.takeBatch();
    let outcomes: AppendOutcome[];
    try {
      outcomes = await this.options.commit(
        batch.map((pending) => pending.append),
        this.options.now().toISOString(),
      );
    } catch (error) {
      // The transaction rolled back: none of the batch was written.
      for (const pending of batch) pending.reject(error);
      return;
    }
    const committed = outcomes.flatMap((outcome) => (outcome.ok ? outcome.events : []));
    if (committed.length > 0) {
      try {
        await this.options.onCommitted(committed);
      } catch (error) {
        // The events are durable; a broken listener must not leave their appends unresolved.
        process.emitWarning(`event publication failed: ${String(error)}`);
      }
    }
    outcomes.forEach((outcome, index) => {
      const pending = batch[index];
      if (pending === undefined) return;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    });
  }
}
