import type { ProviderSession } from "../entities/provider-session.ts";
import type { ProviderThread } from "../entities/provider-thread.ts";
import type { ProjectionRow } from "./projection-write.ts";

/** P4: each provider session with the provider threads it hosts. */
export function assembleProviderSessions(rows: {
  sessions: readonly ProjectionRow<ProviderSession>[];
  providerThreads: readonly ProjectionRow<ProviderThread>[];
}): { session: ProviderSession; providerThreads: ProviderThread[] }[] {
  const bySession = new Map<string, ProviderThread[]>();
  for (const { data } of rows.providerThreads) {
    if (!data.providerSessionId) continue;
    const list = bySession.get(data.providerSessionId) ?? [];
    list.push(data);
    bySession.set(data.providerSessionId, list);
  }
  return rows.sessions
    .map((row) => row.data)
    .sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id))
    .map((session) => ({ session, providerThreads: bySession.get(session.id) ?? [] }));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
