"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useAction } from "../../lib/use-action.ts";

/** What the review diff shows (the same ids `review.diff` took). */
export type DiffSelection = { threadId: string; runId?: string; sinceRunId?: string };
export type RevertTarget = { path: string; hunk?: number };

/** The last revert: what it changed and the safety checkpoint that undoes it. */
export type RevertDone = { target: RevertTarget; safetyCheckpointId: string; undone: boolean };

/**
 * B14 on the Review page: revert a file or a hunk; a CONFLICT (the person changed the file since)
 * is offered again with force; every revert can be undone through its safety checkpoint.
 */
export function useRevert(selection: DiffSelection, onChanged: () => void) {
  const client = useApi();
  const action = useAction();
  const [done, setDone] = useState<RevertDone | null>(null);
  const [conflicted, setConflicted] = useState<RevertTarget | null>(null);

  const revert = (target: RevertTarget, force = false) =>
    void action.run(async () => {
      setConflicted(null);
      try {
        const input = { ...selection, ...target, ...(force ? { force } : {}) };
        const answer = await client.review.revert.mutate(
          input as Parameters<typeof client.review.revert.mutate>[0],
        );
        setDone({ target, safetyCheckpointId: answer.safetyCheckpointId ?? "", undone: false });
        onChanged();
      } catch (error) {
        // A whole file the person changed since can be forced; a hunk whose lines changed cannot.
        const code = (error as { data?: { code?: string } }).data?.code;
        if (code === "CONFLICT" && target.hunk === undefined && !force) setConflicted(target);
        throw error;
      }
    });

  const undo = () =>
    void action.run(async () => {
      if (!done) return;
      await client.thread.rollback.mutate({
        threadId: selection.threadId,
        checkpointId: done.safetyCheckpointId as never,
        scope: "code",
      });
      setDone({ ...done, undone: true });
      onChanged();
    });

  return { action, done, conflicted, revert, undo };
}

export const targetLabel = (target: RevertTarget) =>
  target.hunk === undefined ? target.path : `hunk ${target.hunk + 1} of ${target.path}`;
