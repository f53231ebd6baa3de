"use client";
import { useApi } from "./api-context.tsx";
import type { Run } from "./types.ts";
import { type Action, useAction } from "./use-action.ts";

/** Queues the run again; it starts as a new `retry` attempt of the same run. */
export function useRetry(threadId: string, onDone: () => void): Action & { retry(run: Run): void } {
  const client = useApi();
  const action = useAction();
  return {
    ...action,
    retry(run) {
      void action.run(async () => {
        await client.thread.retryRun.mutate({ threadId, runId: run.id });
        onDone();
      });
    },
  };
}
