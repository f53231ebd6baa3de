import type { CommandData } from "../commands.ts";
import { PreconditionFailedError, ValidationError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta, DecideContext } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { gitItem } from "./git.ts";
import { requireOpenThread, requireOtherThread } from "./guards.ts";

/** How many file lines the item's details list; the event keeps them all. */
const DETAIL_FILES = 50;

/**
 * Issue 26: records a fork's code brought into this thread's workspace without its conversation.
 * Refused while a run works in the workspace (its files would mix with the fork's), for a thread
 * that is not a fork of this one, and without the safety checkpoint that undoes it.
 */
export function recordCodeBroughtBack(
  d: CommandData<"RecordCodeBroughtBack">,
  s: ThreadState,
  meta: CommandMeta,
  ctx: DecideContext,
): ThreadEvent[] {
  const thread = requireOpenThread(s, d.threadId);
  if (d.files.length === 0) {
    throw new ValidationError("a bring-back with no files changes nothing: nothing to record", [
      { path: "files", message: "at least one file" },
    ]);
  }
  if (s.activeRunId) {
    throw new PreconditionFailedError(
      `run ${s.activeRunId} is working in this thread's workspace; bring the code back once it has finished (or interrupt it)`,
    );
  }
  const fork = requireOtherThread(ctx.readThread, d.forkThreadId);
  if (fork.thread.lineage?.parentThreadId !== thread.id) {
    throw new PreconditionFailedError(`thread ${d.forkThreadId} is not a fork of ${thread.id}`);
  }
  if (s.checkpoints.get(d.undoCheckpointId)?.status !== "ready") {
    throw new PreconditionFailedError(
      `checkpoint ${d.undoCheckpointId} is not a ready checkpoint of this thread: the bring-back could not be undone`,
    );
  }
  const count = d.files.length;
  const lines = d.files
    .slice(0, DETAIL_FILES)
    .map((f) => `${f.status} ${f.path} (+${f.additions} −${f.deletions})`);
  if (count > DETAIL_FILES) lines.push(`… and ${count - DETAIL_FILES} more`);
  const item = gitItem(s, meta, {
    action: "code_brought_back",
    title: `Brought back the code of "${fork.thread.title}" (${count} file${count === 1 ? "" : "s"}, no conversation)`,
    detail: lines.join("\n"),
    url: null,
    ref: d.undoCheckpointId,
  });
  return [
    {
      type: "CodeBroughtBack",
      data: {
        forkThreadId: d.forkThreadId,
        undoCheckpointId: d.undoCheckpointId,
        files: d.files,
        item,
        at: meta.at,
      },
    },
  ];
}
