import type { ProjectionQuery } from "@skein/db";
import {
  assembleProviderSessions,
  NotFoundError,
  type ProviderSession,
  type ProviderThread,
  type ThreadId,
} from "@skein/domain";
import type { ProviderSessionsData } from "@skein/contract";
import { listRows, typedRows } from "./rows.ts";

/**
 * P4 for one thread: each provider session that hosts one of the thread's provider threads, with
 * those provider threads (oldest session first). Sessions are read by id: a thread has a handful.
 */
export async function readProviderSessions(
  query: ProjectionQuery,
  threadId: ThreadId,
): Promise<ProviderSessionsData> {
  if ((await query.get("threads", threadId)) === undefined) {
    throw new NotFoundError("thread", threadId);
  }
  const providerThreads = await listRows<ProviderThread>(query, "provider_threads", threadId);
  const ids = new Set<string>();
  for (const row of providerThreads) {
    if (row.data.providerSessionId) ids.add(row.data.providerSessionId);
  }
  const sessions = [];
  for (const id of ids) {
    const row = await query.get("provider_sessions", id);
    if (row !== undefined) sessions.push(row);
  }
  return {
    sessions: assembleProviderSessions({
      sessions: typedRows<ProviderSession>(sessions),
      providerThreads,
    }),
  };
}
