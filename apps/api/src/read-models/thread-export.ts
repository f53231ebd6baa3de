import type { EventStore } from "@skein/db";
import {
  NotFoundError,
  THREAD_EXPORT_FORMAT,
  type ThreadExportDocument,
  type ThreadId,
} from "@skein/domain";
import { readThreadStreams } from "./thread-streams.ts";

/**
 * one thread as a file — its stream, its sources' streams up to the root (a fork reads them),
 * its project and its provider sessions, dependencies first so an import can append in order.
 */
export async function exportThread(
  store: EventStore,
  threadId: ThreadId,
  now: Date = new Date(),
): Promise<ThreadExportDocument> {
  const streams = await readThreadStreams(store, threadId);
  if (streams.length === 0) throw new NotFoundError("thread", threadId);
  return {
    format: THREAD_EXPORT_FORMAT,
    version: 1,
    exportedAt: now.toISOString(),
    threadId,
    streams: streams.map(({ streamId, events }) => ({
      streamId,
      events: events.map(({ type, data }) => ({ type, data: data as Record<string, unknown> })),
    })),
  };
}
