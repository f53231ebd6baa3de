/**
 * What a sidebar row asks of the person. `needs-you`: the thread waits on them (an approval or a
 * question pending); `unread`: a run ended after they last opened the thread in this browser;
 * null: nothing. Needs-you wins: it is the one that blocks work.
 */
export type RowAttention = "needs-you" | "unread" | null;

export type AttentionInput = {
  status: string;
  pendingRequestCount: number;
  lastRunEndedAt?: string | undefined;
};

/**
 * `seenUpTo`: when the person last had the thread open here, or, for a thread never opened in
 * this browser, when this browser started keeping track (so a new browser does not call every
 * old thread unread). Null: nothing known, nothing unread.
 */
export function rowAttention(shell: AttentionInput, seenUpTo: string | null): RowAttention {
  if (shell.pendingRequestCount > 0 || shell.status === "waiting") return "needs-you";
  if (shell.lastRunEndedAt === undefined || seenUpTo === null) return null;
  const ended = Date.parse(shell.lastRunEndedAt);
  const seen = Date.parse(seenUpTo);
  if (Number.isNaN(ended) || Number.isNaN(seen)) return null;
  return ended > seen ? "unread" : null;
}

/** The later of two ISO times (an unreadable one loses): what "opened up to" records. */
export function laterOf(a: string, b: string | undefined): string {
  if (b === undefined) return a;
  const tb = Date.parse(b);
  if (Number.isNaN(tb)) return a;
  const ta = Date.parse(a);
  return Number.isNaN(ta) || tb > ta ? b : a;
}
