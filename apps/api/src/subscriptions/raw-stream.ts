import { SubscriberOverflow } from "@skein/db";
import { threadStreamId } from "@skein/domain";
import { TRPCError, type TrackedEnvelope, tracked } from "@trpc/server";
import type { ApiContext } from "../context.ts";
import { rethrowMapped } from "../errors.ts";
import { readRawFramesAfter } from "../read-models/raw-frames.ts";
import { readyBatches } from "./ready-batches.ts";
import type { RawStreamInput, RawStreamMessage } from "@skein/contract";

/** The tracked id of a first message with no frames: resuming from it starts from the top. */
export const RAW_STREAM_START = "start";

/**
 * Each wake-up reads the raw log back from its files, and a streaming reply sends a frame per
 * delta: under load a subscriber reads at most a few times a second (a quiet run's next frame
 * still goes out at once).
 */
const BATCHING = { maxBatch: 1_024, minIntervalMs: 250 };

/**
 * B8/E18: a run's raw frames as a stream — the frames recorded so far, then each new one as the
 * run produces it, until the run has ended and its last frame was sent (then the stream ends).
 *
 * The thread's store stream is the wake-up: every frame that changes a node's range is named by
 * the event it led to, and the frames are read back from the raw log after the last one sent.
 * The store subscription is attached before the first read, so a frame committed meanwhile is
 * read at the next wake-up at the latest. The cursor is a frame id in log order, so a resume (or
 * a subscriber that fell behind the store's buffer) continues after it without loss or repeats.
 */
export async function* watchRaw(
  ctx: ApiContext,
  input: RawStreamInput,
  request: AbortSignal | undefined,
): AsyncGenerator<TrackedEnvelope<RawStreamMessage>, void, unknown> {
  const signal = request
    ? AbortSignal.any([request, ctx.watch.shutdownSignal])
    : ctx.watch.shutdownSignal;
  const { lastEventId, ...range } = input;
  let cursor = lastEventId && lastEventId !== RAW_STREAM_START ? lastEventId : null;
  let first = true;
  try {
    while (!signal.aborted) {
      const subscription = ctx.store.subscribe({
        afterSequence: await ctx.store.headSequence(),
        filter: { streamIds: [threadStreamId(range.threadId)] },
      });
      const stop = () => subscription.close();
      signal.addEventListener("abort", stop, { once: true });
      try {
        // Reads until the log has nothing more after the cursor; true once the run is over.
        const drain = async function* (): AsyncGenerator<
          TrackedEnvelope<RawStreamMessage>,
          boolean
        > {
          for (;;) {
            const page = await readRawFramesAfter(ctx.store, ctx.rawLog, range, cursor);
            const last = page.frames.at(-1)?.rawEventId;
            if (last !== undefined || first) {
              first = false;
              cursor = last ?? cursor;
              const message = { type: "frames", logged: page.logged, frames: page.frames } as const;
              yield tracked(cursor ?? RAW_STREAM_START, message);
            }
            if (!page.truncated) return page.ended;
          }
        };
        if (yield* drain()) return;
        for await (const batch of readyBatches(subscription[Symbol.asyncIterator](), BATCHING)) {
          if (!batch.some(mayMatter)) continue;
          if (yield* drain()) return;
        }
        if (signal.aborted) return;
        throw new TRPCError({
          code: "SERVICE_UNAVAILABLE",
          message: "event feed closed; reconnect",
        });
      } catch (error) {
        // Fell behind the store's buffer: the cursor still says exactly what was sent.
        if (!(error instanceof SubscriberOverflow)) throw error;
      } finally {
        signal.removeEventListener("abort", stop);
        subscription.close();
      }
    }
  } catch (error) {
    rethrowMapped(error);
  }
}

/** Only events made from a frame move a node's frame range; run and turn events may end it. */
function mayMatter(event: { type: string; data: unknown }): boolean {
  const data = event.data;
  if (typeof data === "object" && data !== null && "rawEventId" in data) return true;
  return /^(Run|ProviderTurn)/.test(event.type);
}
