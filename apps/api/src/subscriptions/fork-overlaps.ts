import type { ThreadId } from "@skein/domain";
import type { ApiContext } from "../context.ts";
import { rethrowMapped } from "../errors.ts";
import type { ForkOverlaps } from "@skein/contract";

export const OVERLAP_POLL_DEFAULT_MS = 2_000;

/**
 * B9 overlap warnings while forks run: the forks' changed files and overlaps, sent first at once
 * and then whenever they change. Worktree edits are not events (an agent's shell writes files
 * behind every tool report), so the worktrees are read every `intervalMs`; nothing is sent for a
 * read that found what the last one did. Ends when the client goes away.
 */
export async function* watchForkOverlaps(
  ctx: ApiContext,
  input: { threadIds: ThreadId[]; intervalMs?: number },
  signal: AbortSignal | undefined,
): AsyncGenerator<ForkOverlaps> {
  let last = "";
  while (!signal?.aborted) {
    // A refusal (not a fork, no such thread) is coded as thread.compare codes it, not 500.
    const comparison = await ctx.orchestrator
      .compareForks({ threadIds: input.threadIds })
      .catch((error: unknown) => rethrowMapped(error));
    const view: ForkOverlaps = {
      forks: comparison.forks.map((f) => ({
        threadId: f.threadId,
        status: f.status,
        files: f.files?.map((c) => c.path) ?? null,
      })),
      overlaps: comparison.overlaps,
    };
    const key = JSON.stringify(view);
    if (key !== last) {
      last = key;
      yield view;
    }
    await sleep(input.intervalMs ?? OVERLAP_POLL_DEFAULT_MS, signal);
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
