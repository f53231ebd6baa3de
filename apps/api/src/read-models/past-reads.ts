import {
  type EventStore,
  type MemoryRows,
  memoryProjectionQuery,
  type ProjectionQuery,
} from "@skein/db";
import {
  type LoggedEvent,
  NotFoundError,
  projectStreamId,
  type RebuiltRow,
  rebuildRows,
  sessionStreamId,
  type ThreadId,
  threadStreamId,
  ValidationError,
} from "@skein/domain";
import type { ThreadDetailData } from "./detail.ts";
import { readThreadDetail } from "./detail.ts";
import type { DetailWindowInput } from "./detail-window.ts";
import { type ThreadGraphData, readThreadGraph } from "./graph.ts";
import type { Snapshotted, ThreadShells } from "./index.ts";
import { readShells, type ShellPageInput } from "./shells.ts";
import type { FoldAt } from "./fold-checkpoint.ts";
import { PastFolds } from "./past-folds.ts";
import type { ThreadStream } from "./thread-streams.ts";

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

/** One set of checkpoints per store (tests and tools open several stores in one process). */
const foldsOf = new WeakMap<EventStore, PastFolds>();

/** Sizes a store's checkpoints (tests use small intervals to cross many of them). */
export function usePastFolds(store: EventStore, folds: PastFolds): void {
  foldsOf.set(store, folds);
}

function pastFolds(store: EventStore): PastFolds {
  let folds = foldsOf.get(store);
  if (!folds) {
    folds = new PastFolds();
    foldsOf.set(store, folds);
  }
  return folds;
}

/** Forks of forks are followed at most this deep (as the detail read does). */
const MAX_LINEAGE_DEPTH = 64;

/**
 * The rows a thread's reads see at `atSequence`: its own stream, its sources' streams up to the
 * root (a fork reads them by reference), its project's and its provider sessions' streams, each
 * folded from its nearest checkpoint.
 */
async function threadRowsAt(store: EventStore, threadId: ThreadId, atSequence: number) {
  await checkedSequence(store, atSequence);
  const folds = pastFolds(store);
  const own = await folds.at(store, threadStreamId(threadId), atSequence);
  if (own.fold.version === 0) {
    throw new NotFoundError("thread", threadId);
  }
  const parts: FoldAt[] = [own];
  const sessions = new Set(own.sessions);
  const visited = new Set<string>([threadId]);
  let origin = own.origin;
  for (let depth = 0; origin.sourceThreadId && depth < MAX_LINEAGE_DEPTH; depth += 1) {
    const sourceId = origin.sourceThreadId;
    if (visited.has(sourceId)) break;
    visited.add(sourceId);
    const source = await folds.at(store, threadStreamId(sourceId), atSequence);
    if (source.fold.version === 0) break;
    parts.push(source);
    for (const id of source.sessions) sessions.add(id);
    origin = source.origin;
  }
  const projectId = own.origin.projectId;
  const others = [
    ...(projectId ? [projectStreamId(projectId)] : []),
    ...[...sessions].sort().map((id) => sessionStreamId(id)),
  ];
  for (const streamId of others) parts.push(await folds.at(store, streamId, atSequence));
  // Each row belongs to exactly one stream, so the folds' rows simply join.
  const rows = new Map<string, RebuiltRow>();
  for (const part of parts) for (const [key, row] of part.fold.rows) rows.set(key, row);
  return detached(memoryProjectionQuery(rows as MemoryRows));
}

/**
 * Checkpointed rows are shared between reads: hand each reader its own copy of what it reads,
 * so a read model that edits a row's data in place cannot change a later read.
 */
function detached(query: ProjectionQuery): ProjectionQuery {
  const own = <T extends { data: unknown }>(row: T): T => ({
    ...row,
    data: structuredClone(row.data),
  });
  return {
    get: async (table, id) => {
      const row = await query.get(table, id);
      return row && own(row);
    },
    list: async (table, filter) => (await query.list(table, filter)).map(own),
    threadPage: async (filter) => (await query.threadPage(filter)).map(own),
    messageThreadPage: async (filter) =>
      (await query.messageThreadPage(filter)).map((hit) => ({ ...hit, row: own(hit.row) })),
    count: (table, filter) => query.count(table, filter),
    highestSibling: (filter) => query.highestSibling(filter),
    titleTaken: (filter) => query.titleTaken(filter),
    portsHeld: (filter) => query.portsHeld(filter),
    subagentChildren: (threadId) => query.subagentChildren(threadId),
  };
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
