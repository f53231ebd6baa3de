import type { EventStore } from "@skein/db";
import { NotFoundError, type ThreadId, threadStreamId } from "@skein/domain";
import type { ThreadTimeline } from "@skein/contract";

/** Most points one timeline answers: a scrubber cannot show more, however long the thread. */
export const MAX_TIMELINE_POINTS = 2_000;

/** Keeps `max` points spread evenly, always with the first and the last. */
function thin<T>(all: readonly T[], max: number): T[] {
  if (all.length <= max) return [...all];
  const step = (all.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => all[Math.round(i * step)]!);
}

/**
 * B8: the points a person can travel back to on one thread — every event of its own stream,
 * with the time the store recorded it. A past read at any of them shows the thread as it was.
 */
export async function readThreadTimeline(
  store: EventStore,
  threadId: ThreadId,
): Promise<ThreadTimeline> {
  const events = await store.readStream(threadStreamId(threadId));
  if (events.length === 0) throw new NotFoundError("thread", threadId);
  // Read after the stream, so the head is never behind its last point.
  const headSequence = await store.headSequence();
  const points = events.map(({ sequence, type, recordedAt }) => ({ sequence, type, recordedAt }));
  return {
    headSequence,
    points: thin(points, MAX_TIMELINE_POINTS),
    total: points.length,
  };
}
