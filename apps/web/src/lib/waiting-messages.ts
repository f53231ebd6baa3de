import type { ThreadDetail } from "./types.ts";

export type WaitingMessage = { runId: string; ordinal: number; text: string };

/**
 * B20: the thread's messages waiting to start, in the order they will start (by ordinal, which a
 * reorder rewrites). A run queued again by a retry already ran once: it is not the person's to
 * edit or move, so it is left out, as the server does.
 */
export function waitingMessages(detail: ThreadDetail): WaitingMessage[] {
  const started = new Set(detail.attempts.map((attempt) => attempt.runId));
  const textOf = new Map<string, string>();
  for (const item of detail.turnItems) {
    if (item.type === "user_message" && item.runId !== null && !textOf.has(item.runId)) {
      textOf.set(item.runId, item.text);
    }
  }
  return detail.runs
    .filter((run) => run.status === "queued" && !started.has(run.id) && !run.compact)
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((run) => ({ runId: run.id, ordinal: run.ordinal, text: textOf.get(run.id) ?? "" }));
}

/** The order after moving the message at `from` by `step` (−1 up, +1 down). */
export function moved(list: readonly WaitingMessage[], from: number, step: -1 | 1): string[] {
  const ids = list.map((message) => message.runId);
  const to = from + step;
  if (to < 0 || to >= ids.length) return ids;
  [ids[from], ids[to]] = [ids[to] as string, ids[from] as string];
  return ids;
}
