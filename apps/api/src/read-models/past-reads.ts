import { type EventStore, type MemoryRows, memoryProjectionQuery } from "@skein/db";
import {
  type LoggedEvent,
  NotFoundError,
  rebuildRows,
  type ThreadId,
  ValidationError,
} from "@skein/domain";
import type { ThreadDetailData } from "./detail.ts";
import { readThreadDetail } from "./detail.ts";
import type { DetailWindowInput } from "./detail-window.ts";
import { type ThreadGraphData, readThreadGraph } from "./graph.ts";
import type { Snapshotted, ThreadShells } from "./index.ts";
import { readShells, type ShellPageInput } from "./shells.ts";
import { type ThreadStream, readThreadStreams } from "./thread-streams.ts";

/** Events read per page when a past read needs the whole log (the shells). */
const PAGE = 5_000;

/**
 * Projection rows as they stood: each stream folded exactly as the live path folds it (the
 * domain's rebuild), so a read model over them answers what it answered then. Every event here
 * comes from the log, so every row carries the sequence that last wrote it.
 */
function fold(streams: Iterable<ThreadStream>): MemoryRows {
  const logged = [...streams].map(
    ({ streamId, events }) =>
      [
        streamId,
        events.map(({ type, data, sequence }) => ({ type, data, sequence }) as LoggedEvent),
      ] as const,
  );
  return rebuildRows(logged) as MemoryRows;
}

async function checkedSequence(store: EventStore, atSequence: number): Promise<void> {
  const head = await store.headSequence();
  if (atSequence > head) {
    throw new ValidationError(`atSequence ${atSequence} is beyond the log's head (${head})`, [
      { path: "atSequence", message: `must be at most ${head}` },
    ]);
  }
}

async function threadRowsAt(store: EventStore, threadId: ThreadId, atSequence: number) {
  await checkedSequence(store, atSequence);
  const streams = await readThreadStreams(store, threadId, atSequence);
  if (streams.length === 0) {
    throw new NotFoundError("thread", threadId);
  }
  return memoryProjectionQuery(fold(streams));
}

/** Every stream of the log up to `atSequence`, grouped by stream in log order. */
async function allStreamsAt(store: EventStore, atSequence: number): Promise<ThreadStream[]> {
  const byStream = new Map<string, ThreadStream>();
  for (let after = 0; after < atSequence; ) {
    const page = await store.readAll(after, Math.min(PAGE, atSequence - after));
    if (page.length === 0) break;
    for (const event of page) {
      if (event.sequence > atSequence) break;
      const stream = byStream.get(event.streamId);
      if (stream) stream.events.push(event);
      else byStream.set(event.streamId, { streamId: event.streamId, events: [event] });
    }
    after = page.at(-1)!.sequence;
  }
  return [...byStream.values()];
}

/**
 * B8 time travel: `thread.detail`, `thread.graph` and `thread.shells` as they read when the
 * log's head was `atSequence`. A thread's reads fold only the streams it depends on (its own, its
 * fork sources, its project and provider sessions), cut at that sequence.
 */
export const pastReads = {
  async detail(
    store: EventStore,
    threadId: ThreadId,
    atSequence: number,
    window: DetailWindowInput = {},
  ): Promise<Snapshotted<ThreadDetailData>> {
    const query = await threadRowsAt(store, threadId, atSequence);
    return { snapshotSequence: atSequence, ...(await readThreadDetail(query, threadId, window)) };
  },

  async graph(
    store: EventStore,
    threadId: ThreadId,
    atSequence: number,
  ): Promise<Snapshotted<ThreadGraphData>> {
    const query = await threadRowsAt(store, threadId, atSequence);
    return { snapshotSequence: atSequence, ...(await readThreadGraph(query, threadId)) };
  },

  async shells(
    store: EventStore,
    atSequence: number,
    page: ShellPageInput = {},
  ): Promise<ThreadShells> {
    await checkedSequence(store, atSequence);
    const query = memoryProjectionQuery(fold(await allStreamsAt(store, atSequence)));
    return { snapshotSequence: atSequence, ...(await readShells(query, page)) };
  },
};
