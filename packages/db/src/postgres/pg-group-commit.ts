import type { AppendResult, StoredEvent } from "../event-store.ts";
import type { PreparedAppend } from "../prepare-append.ts";
import type { AppendOutcome } from "./batch-plan.ts";

type Pending = {
  append: PreparedAppend;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

export type PgGroupCommitOptions = {
  commit: (batch: readonly PreparedAppend[], recordedAt: string) => Promise<AppendOutcome[]>;
  /** Called with each committed batch's events, in sequence order, before its appends resolve. */
  onCommitted: (events: StoredEvent[]) => Promise<void>;
  maxBatchSize: number;
  now: () => Date;
};

/**
 * The asynchronous twin of the SQLite group commit: one batch transaction in flight at a time;
 * appends issued while it runs queue up and form the next batch. The first append after a quiet
 * spell waits one setImmediate so that callers resumed in the same tick share its transaction.
 */
export class PgGroupCommit {
  private queue: Pending[] = [];
  private running: Promise<void> | null = null;

  constructor(private readonly options: PgGroupCommitOptions) {}

  enqueue(append: PreparedAppend): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ append, resolve, reject });
      if (this.running === null) {
        this.running = new Promise<void>((started) => setImmediate(started)).then(() =>
          this.flushAll(),
        );
      }
    });
  }

  /** Resolves once everything queued so far has been written (used by close). */
  async drain(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async flushAll(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commitNext();
    } finally {
      this.running = null;
    }
  }

  private async commitNext(): Promise<void> {
    const batch = this.queue.splice(0, this.options.maxBatchSize);
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
