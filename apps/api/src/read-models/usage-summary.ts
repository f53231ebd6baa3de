import type { UsageRow, UsageSummary } from "@skein/contract";
import type { ProjectionQuery } from "@skein/db";
import { addTokenUsage, type ProviderKind, type Run } from "@skein/domain";

const DAY_MS = 86_400_000;

/** Thread pages grow from the first (most views stop within it) up to the last size. */
const THREAD_PAGES = [4, 32, 256, 1_024] as const;

type ThreadListed = { id: string; title?: string; lastActivityAt?: string | null };

/**
 * Every thread (active, archived or deleted) with activity at or after `sinceIso`, newest first,
 * paged through the thread list's index in pages that grow while the window goes on. A run's
 * queueing, start, end and cancellation each move its thread's last activity, so a thread quiet
 * since before the window holds no run of it: the view reads the threads and runs of the days it
 * shows, not every run ever recorded.
 */
async function* threadsActiveSince(
  q: ProjectionQuery,
  sinceIso: string,
): AsyncGenerator<ThreadListed> {
  for (const visibility of ["active", "archived", "deleted"] as const) {
    let after: { activeAt: string; id: string } | undefined;
    for (let pages = 0; ; pages += 1) {
      const limit = THREAD_PAGES[Math.min(pages, THREAD_PAGES.length - 1)]!;
      const page = await q.threadPage({
        visibility,
        limit,
        ...(after ? { after } : {}),
      });
      for (const row of page) {
        const thread = row.data as ThreadListed;
        if (!thread.lastActivityAt || thread.lastActivityAt < sinceIso) break;
        yield thread;
      }
      const last = page.at(-1)?.data as ThreadListed | undefined;
      if (page.length < limit || !last?.lastActivityAt || last.lastActivityAt < sinceIso) {
        break;
      }
      after = { activeAt: last.lastActivityAt, id: last.id };
    }
  }
}

/**
 * B20's usage view from what the runs recorded (tokens, and cost where the provider reports it):
 * one row per provider, thread and UTC day, newest day first, and each provider's total.
 */
export async function readUsageSummary(
  q: ProjectionQuery,
  days: number,
  now: Date,
): Promise<UsageSummary> {
  const since = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
  const sinceIso = since.toISOString();
  const rows = new Map<string, UsageRow>();
  const titles = new Map<string, string>();
  for await (const thread of threadsActiveSince(q, sinceIso)) {
    titles.set(thread.id, thread.title ?? thread.id);
    for (const row of await q.list("runs", { threadId: thread.id })) {
      const run = row.data as Run;
      const at = run.completedAt ?? run.requestedAt;
      if (!run.usage || at < sinceIso) continue;
      const day = at.slice(0, 10);
      const key = `${run.provider}|${run.threadId}|${day}`;
      const found = rows.get(key);
      if (found) {
        found.runs += 1;
        found.usage = addTokenUsage(found.usage, run.usage);
      } else {
        rows.set(key, {
          provider: run.provider,
          day,
          threadId: run.threadId,
          threadTitle: "",
          runs: 1,
          usage: run.usage,
        });
      }
    }
  }
  const list = [...rows.values()]
    .map((row) => ({ ...row, threadTitle: titles.get(row.threadId) ?? row.threadId }))
    .sort((a, b) => b.day.localeCompare(a.day) || a.provider.localeCompare(b.provider));
  const totals = new Map<ProviderKind, UsageSummary["totals"][number]>();
  for (const row of list) {
    const total = totals.get(row.provider);
    if (total) {
      total.runs += row.runs;
      total.usage = addTokenUsage(total.usage, row.usage);
    } else totals.set(row.provider, { provider: row.provider, runs: row.runs, usage: row.usage });
  }
  return { since: sinceIso, rows: list, totals: [...totals.values()] };
}
