"use client";
import { useRouter } from "next/navigation";
import { useApi } from "./api-context.tsx";
import { useShells } from "./shells-store.tsx";
import type { ForkSourcePoint } from "./types.ts";
import { type Action, useAction } from "./use-action.ts";

/**
 * Forks and opens the new thread at once. A fork is cheap (T1): no provider work happens until
 * its first message, so there is nothing to wait for.
 */
export function useFork(
  threadId: string,
  sourceTitle: string | null,
): Action & {
  fork(sourcePoint: ForkSourcePoint, options?: { isolatedWorkspace?: boolean }): void;
} {
  const client = useApi();
  const router = useRouter();
  const { refreshThread } = useShells();
  const action = useAction();
  return {
    ...action,
    fork(sourcePoint, options = {}) {
      void action.run(async () => {
        const result = await client.thread.fork.mutate({
          threadId,
          sourcePoint,
          // A fork that repeats its source's title is hard to tell apart in the sidebar.
          ...(sourceTitle ? { title: forkTitle(sourceTitle) } : {}),
          ...(options.isolatedWorkspace ? { isolatedWorkspace: true } : {}),
        });
        refreshThread(result.threadId);
        router.push(`/threads/${result.threadId}`);
      });
    },
  };
}

const MAX_TITLE = 200;

export function forkTitle(sourceTitle: string): string {
  const suffix = " (fork)";
  const base = sourceTitle.replace(/( \(fork\))+$/, "");
  return `${base.slice(0, MAX_TITLE - suffix.length)}${suffix}`;
}
