"use client";
import { useRouter } from "next/navigation";
import { useApi } from "./api-context.tsx";
import { copyChoice } from "./composer-choice.ts";
import { useShells } from "./shells-store.tsx";
import type { ForkSourcePoint } from "./types.ts";
import { type Action, useAction } from "./use-action.ts";

/**
 * Forks and opens the new thread at once. A fork is cheap (T1): no provider work happens until
 * its first message, so there is nothing to wait for.
 */
export function useFork(threadId: string): Action & {
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
          // Untitled: the API names it where it came from ("fork of Main at run 3"), as for
          // every client.
          ...(options.isolatedWorkspace ? { isolatedWorkspace: true } : {}),
        });
        copyChoice(threadId, result.threadId);
        refreshThread(result.threadId);
        router.push(`/threads/${result.threadId}`);
      });
    },
  };
}

/**
 * Under its source in the sidebar, "fork of Main thread at run 3" says the same thing twice and
 * is cut before the part that tells siblings apart: there it reads "fork at run 3".
 */
export function nestedForkLabel(title: string, parentTitle: string | undefined): string {
  if (parentTitle === undefined) return title;
  const prefix = `fork of ${parentTitle} at run `;
  return title.startsWith(prefix) && /^\d+( \(\d+\))?$/.test(title.slice(prefix.length))
    ? `fork at run ${title.slice(prefix.length)}`
    : title;
}
