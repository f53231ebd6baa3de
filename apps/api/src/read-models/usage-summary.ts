import type { UsageRow, UsageSummary } from "@skein/contract";
import type { ProjectionQuery } from "@skein/db";
import { addTokenUsage, type ProviderKind, type Run } from "@skein/domain";

const DAY_MS = 86_400_000;

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
  for (const row of await q.list("runs")) {
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
  const titles = new Map<string, string>();
  for (const threadId of new Set([...rows.values()].map((r) => r.threadId))) {
    const shell = (await q.get("threads", threadId))?.data as { title?: string } | undefined;
    titles.set(threadId, shell?.title ?? threadId);
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
