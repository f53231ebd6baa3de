"use client";
import type { SkeinClient } from "@skein/contract";
import { toast } from "sonner";
import { describeError } from "./errors.ts";

/** How long the "Undo" stays on screen after an archive. */
const UNDO_MS = 10_000;

/**
 * Archives a thread (its queued runs are cancelled, a running one is interrupted) and offers to
 * take it back at once; `refresh` re-reads the thread's row so the sidebar follows both ways.
 */
export async function archiveWithUndo(
  client: SkeinClient,
  thread: { id: string; title: string },
  refresh: (threadId: string) => void,
): Promise<void> {
  await client.thread.archive.mutate({ threadId: thread.id });
  refresh(thread.id);
  toast.success(`Archived “${thread.title}”`, {
    id: `archived-${thread.id}`,
    duration: UNDO_MS,
    action: {
      label: "Undo",
      onClick: () => {
        void client.thread.unarchive.mutate({ threadId: thread.id }).then(
          () => {
            refresh(thread.id);
            toast.success(`“${thread.title}” is back in the thread list`);
          },
          (error: unknown) => {
            const failure = describeError(error);
            toast.error(`Could not undo the archive. ${failure.message}`);
          },
        );
      },
    },
  });
}
