import type { AppendResult, StoredEvent } from "../event-store.ts";
import type { PreparedAppend } from "../prepare-append.ts";
import type { SqliteWriter } from "./sqlite-writer.ts";

type Pending = {
  append: PreparedAppend;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

export type GroupCommitOptions = {
  writer: SqliteWriter;
  /** Called with each committed batch's events, in sequence order, before appends resolve. */
  onCommitted: (events: StoredEvent[]) => void;
  maxBatchSize: number;
  now: () => Date;
};

/**
 * Queues appends and writes them in one transaction per batch. A flush is scheduled with
 * setImmediate, i.e. after every append issued in the current round of callbacks and microtasks
 * (typically: all the awaiting writers just resumed by the previous flush), so concurrent callers
 * share a commit. better-sqlite3 commits synchronously, so a flush never overlaps another.
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly options: GroupCommitOptions) {}

  enqueue(append: PreparedAppend): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ append, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flushOne());
      }
    });
  }

  /** Writes everything queued, now (used by close). */
  drain(): void {
    while (this.queue.length > 0) this.commitNext();
  }

  private flushOne(): void {
    this.scheduled = false;
    this.commitNext();
    if (this.queue.length > 0 && !this.scheduled) {
      // Yield to I/O between oversized batches instead of writing them back to back.
      this.scheduled = true;
      setImmediate(() => this.flushOne());
    }
  }

  private commitNext(): void {
    const batch = this.queue.splice(0, this.options.maxBatchSize);
    if (batch.length === 0) return;
    let outcomes: ReturnType<SqliteWriter["commit"]>;
    try {
      outcomes = this.options.writer.commit(
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
        this.options.onCommitted(committed);
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
