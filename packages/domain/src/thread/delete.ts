import type { CommandData } from "../commands.ts";
import { ConflictError, PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { requireThread } from "./guards.ts";

/**
 * Issue 33: a soft delete. The thread leaves every list and takes no more work; its queued runs
 * are cancelled with it. A run in progress is refused rather than stopped: deleting is not the
 * way to interrupt, and only the runtime could stop it.
 */
export function deleteThread(
  d: CommandData<"DeleteThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  if (thread.deletedAt) throw new PreconditionFailedError(`thread ${thread.id} is already deleted`);
  if (s.activeRunId) {
    throw new ConflictError(
      `thread ${thread.id} has a run in progress: interrupt it (or wait for it to end), then delete the thread`,
    );
  }
  const cancelled: ThreadEvent[] = [...s.queuedRunIds].map((runId) => ({
    type: "RunCancelled",
    data: { runId, at: meta.at },
  }));
  return [...cancelled, { type: "ThreadDeleted", data: { threadId: thread.id, at: meta.at } }];
}

/** Only a deleted thread is purged, and only once (the orchestrator checks before its effects). */
export function purgeThread(
  d: CommandData<"PurgeThread">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireThread(s, d.threadId);
  if (!thread.deletedAt) {
    throw new PreconditionFailedError(`thread ${thread.id} is not deleted: delete it first`);
  }
  if (s.purgedAt) throw new PreconditionFailedError(`thread ${thread.id} is already purged`);
  return [
    {
      type: "ThreadPurged",
      data: {
        threadId: thread.id,
        worktreePath: d.worktreePath,
        refsDeleted: d.refsDeleted,
        at: meta.at,
      },
    },
  ];
}
