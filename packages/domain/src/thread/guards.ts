import type { AppThread } from "../entities/app-thread.ts";
import {
  ConflictError,
  NotFoundError,
  PreconditionFailedError,
  ValidationError,
} from "../errors.ts";
import type { ThreadId } from "../ids.ts";
import type { ThreadState } from "../state/thread-state.ts";

/** The thread this stream holds; commands addressed elsewhere are a caller bug. */
export function requireThread(s: ThreadState, threadId: ThreadId): AppThread {
  if (!s.thread) throw new NotFoundError("Thread", threadId);
  if (s.thread.id !== threadId) {
    throw new ValidationError(`command for ${threadId} decided against ${s.thread.id}`);
  }
  return s.thread;
}

/** A thread that still accepts new work (not archived or deleted). */
export function requireOpenThread(s: ThreadState, threadId: ThreadId): AppThread {
  const thread = requireThread(s, threadId);
  if (thread.deletedAt) throw new PreconditionFailedError(`thread ${threadId} is deleted`);
  if (thread.archivedAt) throw new PreconditionFailedError(`thread ${threadId} is archived`);
  return thread;
}

export function requireEntity<K, V>(map: ReadonlyMap<K, V>, id: K, entity: string): V {
  const value = map.get(id);
  if (value === undefined) throw new NotFoundError(entity, String(id));
  return value;
}

export function requireAbsent<K>(map: ReadonlyMap<K, unknown>, id: K, entity: string): void {
  if (map.has(id)) throw new ConflictError(`${entity} ${String(id)} already exists`);
}

export function requireOtherThread(
  readThread: ((threadId: ThreadId) => ThreadState | undefined) | undefined,
  threadId: ThreadId,
): ThreadState & { thread: AppThread } {
  const other = readThread?.(threadId);
  if (!other?.thread) throw new NotFoundError("Thread", threadId);
  return other as ThreadState & { thread: AppThread };
}
