import type { SkeinClient } from "@skein/contract";
import type { QueryClient } from "@tanstack/react-query";
import { codeOf } from "./errors.ts";
import { Burst } from "./query/burst.ts";
import { queryKeys } from "./query/keys.ts";
import type { ThreadDetail } from "./types.ts";

/** One row's answer: its one-run detail, or why there is none. */
export type RowRead = { threadId: string; detail: ThreadDetail | null; gone: boolean };

/** A row whose read failed (after the query's own retries) is asked for again after this… */
const ROW_RETRY_MS = 5_000;
/** …this many times (about a minute); then it keeps what it showed until its thread moves again. */
export const ROW_ROUNDS = 10;

/**
 * The sidebar rows the event stream touched, read again once per burst: just those threads'
 * rows (a one-run window of `thread.detail`: the row is all this needs, whatever the thread's
 * length), through the query cache, which retries each and pauses while offline.
 */
export class ShellRowReader {
  private readonly dirty = new Set<string>();
  private readonly burst: Burst;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Failed rounds per row since it last landed or an event touched it. */
  private readonly failedRounds = new Map<string, number>();

  constructor(
    private readonly queryClient: QueryClient,
    private readonly client: SkeinClient,
    private readonly land: (rows: readonly RowRead[]) => void,
    delayMs: number,
  ) {
    this.burst = new Burst(() => this.readDirty(), delayMs);
  }

  touch(threadId: string): void {
    this.failedRounds.delete(threadId);
    this.dirty.add(threadId);
    this.burst.request();
  }

  dispose(): void {
    this.burst.dispose();
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private async readDirty(): Promise<void> {
    const ids = [...this.dirty];
    this.dirty.clear();
    const results = await Promise.all(ids.map((threadId) => this.readRow(threadId)));
    this.land(results);
    // Their events were delivered, and no later event may come to ask again: asked again later,
    // a bounded number of times.
    let again = false;
    for (const { threadId, detail, gone } of results) {
      if (detail !== null || gone) {
        this.failedRounds.delete(threadId);
        continue;
      }
      const rounds = (this.failedRounds.get(threadId) ?? 0) + 1;
      this.failedRounds.set(threadId, rounds);
      if (rounds >= ROW_ROUNDS || this.dirty.has(threadId)) continue;
      this.dirty.add(threadId);
      again = true;
    }
    if (!again) return;
    this.retryTimer ??= setTimeout(() => {
      this.retryTimer = null;
      this.burst.request();
    }, ROW_RETRY_MS);
  }

  private readRow(threadId: string): Promise<RowRead> {
    return this.queryClient
      .fetchQuery({
        queryKey: queryKeys.threadRow(threadId),
        queryFn: () => this.client.thread.detail.query({ threadId, window: { limit: 1 } }),
        staleTime: 0,
        gcTime: 0,
      })
      .then(
        (detail) => ({ threadId, detail, gone: false }),
        (error: unknown) => ({ threadId, detail: null, gone: codeOf(error) === "NOT_FOUND" }),
      );
  }
}
