import {
  type EventStore,
  type EventSubscription,
  type StoredEvent,
  SubscriberOverflow,
  type SubscriptionFilter,
} from "@skein/db";
import { TRPCError, type TrackedEnvelope, tracked } from "@trpc/server";
import { readyBatches } from "./ready-batches.ts";
import type { WatchMessage } from "@skein/contract";

/**
 * Waking a subscriber costs far more than handing it one more event, so under sustained load each
 * subscriber is woken at most once per interval and given everything since (still one message
 * per event, written to its socket together); a quiet stream still delivers each event at once.
 */
const BATCHING = { maxBatch: 256, minIntervalMs: 10 };

export type WatchStreamOptions<TSnapshot extends { snapshotSequence: number }> = {
  store: EventStore;
  /** Which events follow the snapshot; all of them when left out. */
  filter?: SubscriptionFilter;
  /** Leaves out events the watch has no use for (they still never repeat or reorder). */
  select?: (event: StoredEvent) => boolean;
  /** The client's cursor (`tracked` id it last saw), or nothing for a fresh start. */
  lastEventId: string | null | undefined;
  /** A cursor further behind than this gets a fresh snapshot instead of a replay. */
  maxReplayEvents: number;
  /** One consistent read reporting the sequence it reflects. */
  snapshot: () => Promise<TSnapshot>;
  /** Aborted when the client goes away or the server shuts down. */
  signal: AbortSignal | undefined;
};

/**
 * Where to continue for a cursor: the cursor itself while the store can replay the gap cheaply,
 * otherwise `null` (send a fresh snapshot). A cursor beyond the head came from another database.
 */
async function replayableCursor(
  store: EventStore,
  cursor: number | null,
  maxReplayEvents: number,
): Promise<number | null> {
  if (cursor === null) return null;
  const head = await store.headSequence();
  if (cursor > head || head - cursor > maxReplayEvents) return null;
  return cursor;
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function parseCursor(lastEventId: string | null | undefined): number | null {
  if (lastEventId === null || lastEventId === undefined || !/^\d{1,15}$/.test(lastEventId)) {
    return null;
  }
  return Number(lastEventId);
}

/**
 * S2 over SSE: a snapshot tracked with its `snapshotSequence`, then every later matching event,
 * exactly once and in order, each tracked with its own sequence.
 *
 * - The store subscription is attached before the snapshot is read (at the head sequence read
 *   just before), so nothing committed while the snapshot is read can be missed; events the
 *   snapshot already reflects (`sequence <= snapshotSequence`) are dropped at the seam.
 * - A resume (`lastEventId`) subscribes at the cursor itself: the store replays the gap from the
 *   log page by page, then continues live, with no snapshot. Too large a gap, or a cursor the log
 *   has never reached, gets a fresh snapshot instead, which becomes the new cursor.
 * - A consumer that falls too far behind (`SubscriberOverflow`) continues the same way from the
 *   last event it was given.
 */
export async function* watchStream<TSnapshot extends { snapshotSequence: number }>(
  options: WatchStreamOptions<TSnapshot>,
): AsyncGenerator<TrackedEnvelope<WatchMessage<TSnapshot>>, void, unknown> {
  const { store, filter, signal, maxReplayEvents } = options;
  let cursor = await replayableCursor(store, parseCursor(options.lastEventId), maxReplayEvents);
  while (!isAborted(signal)) {
    const fresh = cursor === null;
    const afterSequence = cursor ?? (await store.headSequence());
    const subscription: EventSubscription = store.subscribe({
      afterSequence,
      ...(filter ? { filter } : {}),
    });
    // close() ends the pending next() normally, so an abort cannot leave the generator waiting.
    const stop = () => subscription.close();
    signal?.addEventListener("abort", stop, { once: true });
    let seen = afterSequence;
    try {
      if (fresh) {
        const snapshot = await options.snapshot();
        seen = snapshot.snapshotSequence;
        cursor = seen;
        yield tracked(String(seen), { type: "snapshot", data: snapshot });
      }
      for await (const batch of readyBatches(subscription[Symbol.asyncIterator](), BATCHING)) {
        for (const event of batch) {
          if (event.sequence <= seen) continue;
          seen = event.sequence;
          cursor = seen;
          if (options.select !== undefined && !options.select(event)) continue;
          yield tracked(String(seen), { type: "event", event });
        }
      }
      if (isAborted(signal)) return;
      // The store ended the feed (shutdown). A retryable error makes the client reconnect with
      // its cursor instead of treating the stream as finished.
      throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "event feed closed; reconnect" });
    } catch (error) {
      if (!(error instanceof SubscriberOverflow)) throw error;
      cursor = await replayableCursor(store, cursor, maxReplayEvents);
    } finally {
      signal?.removeEventListener("abort", stop);
      subscription.close();
    }
  }
}
