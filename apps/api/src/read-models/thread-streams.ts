import type { EventStore, StoredEvent } from "@skein/db";
import { projectStreamId, sessionStreamId, type ThreadId, threadStreamId } from "@skein/domain";

/** Forks of forks are followed at most this deep (as the detail read does). */
const MAX_LINEAGE_DEPTH = 64;

export type ThreadStream = { streamId: string; events: StoredEvent[] };

export type ThreadOrigin = { projectId: string | null; sourceThreadId: string | null };

/** Where a thread stream came from: its first event (ThreadCreated or ThreadForked) says. */
export function originOf(events: readonly StoredEvent[]): ThreadOrigin {
  const first = events[0]?.data as
    | {
        thread?: { projectId?: string; lineage?: { parentThreadId?: string | null } | null };
        inheritance?: { sourceThreadId?: string };
      }
    | undefined;
  return {
    projectId: first?.thread?.projectId ?? null,
    sourceThreadId:
      first?.inheritance?.sourceThreadId ?? first?.thread?.lineage?.parentThreadId ?? null,
  };
}

/** Every provider session a thread's events name (runs, provider threads, turns). */
export function sessionIdsIn(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) sessionIdsIn(item, into);
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "providerSessionId" && typeof inner === "string") into.add(inner);
    else sessionIdsIn(inner, into);
  }
}

/**
 * Everything one thread's reads depend on: its own stream, its sources' streams up to the root
 * (a fork reads them by reference), its project's and its provider sessions' streams —
 * dependencies first, each cut at `upTo` (inclusive) when given. Empty when the thread has no
 * event by then.
 */
export async function readThreadStreams(
  store: EventStore,
  threadId: ThreadId,
  upTo: number = Number.POSITIVE_INFINITY,
): Promise<ThreadStream[]> {
  const read = (streamId: string) =>
    store.readStream(streamId, 0, Number.isFinite(upTo) ? upTo : undefined);
  const own = await read(threadStreamId(threadId));
  if (own.length === 0) return [];
  const threads: ThreadStream[] = [{ streamId: threadStreamId(threadId), events: own }];
  const sessions = new Set<string>();
  sessionIdsIn(
    own.map((e) => e.data),
    sessions,
  );
  let origin = originOf(own);
  const projectId = origin.projectId;
  const visited = new Set<string>([threadId]);
  for (let depth = 0; origin.sourceThreadId && depth < MAX_LINEAGE_DEPTH; depth += 1) {
    const sourceId = origin.sourceThreadId;
    if (visited.has(sourceId)) break;
    visited.add(sourceId);
    const events = await read(threadStreamId(sourceId));
    if (events.length === 0) break;
    threads.unshift({ streamId: threadStreamId(sourceId), events });
    sessionIdsIn(
      events.map((e) => e.data),
      sessions,
    );
    origin = originOf(events);
  }
  const streams: ThreadStream[] = [];
  if (projectId) {
    const project = await read(projectStreamId(projectId));
    if (project.length > 0) streams.push({ streamId: projectStreamId(projectId), events: project });
  }
  for (const sessionId of [...sessions].sort()) {
    const events = await read(sessionStreamId(sessionId));
    if (events.length > 0) streams.push({ streamId: sessionStreamId(sessionId), events });
  }
  streams.push(...threads);
  return streams;
}
