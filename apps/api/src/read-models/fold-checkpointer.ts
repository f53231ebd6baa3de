import { type EventStore, StoreClosedError, SubscriberOverflow } from "@skein/db";
import type { Logger } from "../orchestrator/logger.ts";
import { checkpointStream } from "./checkpoint-step.ts";
import type { PastFolds } from "./past-folds.ts";

/** Streams waiting for a checkpoint at most; a boundary past this is dropped (a read folds it). */
const MAX_QUEUED = 1_000;
/** A step waits for this long without appends before it starts (idle pacing)... */
const QUIET_MS = 25;
/** ...but no longer than this, so steady traffic delays checkpoints, never starves them. */
const MAX_WAIT_MS = 1_000;

export type FoldCheckpointerOptions = {
  log: Logger;
  maxQueued?: number;
  quietMs?: number;
  maxWaitMs?: number;
};

/** Only the streams a past read folds have checkpoints. */
const CHECKPOINTED = /^(thread|project|session)-/;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * B8: writes past-read checkpoints before anyone reads back, so the first past read of a long
 * thread after a restart starts near its point instead of folding the whole stream. It watches
 * committed events (a store subscription, never the append path); when a stream reaches a
 * multiple of the checkpoint interval it queues the stream, and folds queued streams one at a
 * time, when appends pause, from their nearest stored checkpoint to the boundary. So each step
 * folds about one interval of events per interval appended. A failed step is logged and dropped:
 * checkpoints are a cache of the log, and the next boundary (or a read) makes up for it.
 */
export class FoldCheckpointer {
  /** Stream → the newest boundary sequence seen (a later one covers an earlier one). */
  private readonly queue = new Map<string, number>();
  private stopped = false;
  private subscription: { close(): void } | null = null;
  private following: Promise<void> = Promise.resolve();
  private working: Promise<void> | null = null;
  private cursor = 0;
  private lastAppendAt = 0;
  private readonly maxQueued: number;
  private readonly quietMs: number;
  private readonly maxWaitMs: number;
  /**
   * Steps run, events they folded, checkpoints stored, steps continued from a stored checkpoint,
   * ones that had to fold from the start instead, failed steps, boundaries dropped (queue full).
   */
  readonly counts = {
    steps: 0,
    folded: 0,
    saved: 0,
    continued: 0,
    refolded: 0,
    failed: 0,
    dropped: 0,
  };

  constructor(
    private readonly store: EventStore,
    private readonly folds: PastFolds,
    private readonly options: FoldCheckpointerOptions,
  ) {
    this.maxQueued = options.maxQueued ?? MAX_QUEUED;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  }

  /** Follows appends from the current head on. Does nothing when checkpoints are not stored. */
  async start(): Promise<void> {
    if (!this.folds.storedFolds || this.stopped) return;
    this.cursor = await this.store.headSequence();
    this.following = this.follow().catch((error: unknown) => {
      if (error instanceof StoreClosedError) return;
      this.options.log.warn({ err: error }, "fold checkpointer stopped following appends");
    });
  }

  /** Stops following, drops what is queued and waits for a running step (before the store closes). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.clear();
    this.subscription?.close();
    await this.following;
    await this.working;
  }

  /** Resolves once every event up to the head at call time is seen and its steps done (tests). */
  async settled(): Promise<void> {
    const head = await this.store.headSequence();
    while (this.subscription && !this.stopped && this.cursor < head) await sleep(5);
    while (this.working) await this.working;
  }

  private async follow(): Promise<void> {
    const every = this.folds.interval;
    while (!this.stopped) {
      const subscription = this.store.subscribe({ afterSequence: this.cursor });
      this.subscription = subscription;
      try {
        for await (const event of subscription) {
          this.cursor = event.sequence;
          this.lastAppendAt = performance.now();
          if (event.streamVersion % every === 0 && CHECKPOINTED.test(event.streamId)) {
            this.enqueue(event.streamId, event.sequence);
          }
        }
        return; // closed: the store or `stop()` ended the feed
      } catch (error) {
        // Fell behind: resume from the last event seen (the store replays the gap from the log).
        if (!(error instanceof SubscriberOverflow)) throw error;
      } finally {
        subscription.close();
      }
    }
  }

  private enqueue(streamId: string, sequence: number): void {
    if (this.stopped) return;
    if (!this.queue.has(streamId) && this.queue.size >= this.maxQueued) {
      this.counts.dropped += 1;
      return;
    }
    this.queue.set(streamId, sequence);
    this.working ??= this.work().finally(() => {
      this.working = null;
    });
  }

  private async work(): Promise<void> {
    const stored = this.folds.storedFolds;
    while (!this.stopped && stored) {
      const next = this.queue.entries().next();
      if (next.done) return;
      const [streamId, upTo] = next.value;
      this.queue.delete(streamId);
      await this.quiet();
      if (this.stopped) return;
      this.counts.steps += 1;
      try {
        const outcome = await checkpointStream(this.store, stored, streamId, upTo, {
          every: this.folds.interval,
          stopped: () => this.stopped,
        });
        this.counts.folded += outcome.folded;
        this.counts.saved += outcome.saved;
        if (outcome.continued) this.counts.continued += 1;
        if (outcome.refolded) this.counts.refolded += 1;
      } catch (error) {
        this.counts.failed += 1;
        if (error instanceof StoreClosedError) return;
        this.options.log.warn({ err: error, streamId, upTo }, "background checkpoint dropped");
      }
    }
  }

  /** Waits for a pause in appends (or the longest wait), so commands go first. */
  private async quiet(): Promise<void> {
    const started = performance.now();
    while (!this.stopped) {
      const now = performance.now();
      if (now - this.lastAppendAt >= this.quietMs || now - started >= this.maxWaitMs) return;
      await sleep(Math.min(this.quietMs, this.maxWaitMs - (now - started)));
    }
  }
}
