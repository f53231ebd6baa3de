import type { CommandData } from "../commands.ts";
import { ACTIVE_RUN_STATUSES, type RunProgress } from "../entities/run.ts";
import { PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { RunId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { requireEntity, requireThread } from "./guards.ts";

/**
 * B15: sets or clears a running run's live notice. The same notice again records nothing; a
 * notice of the same kind keeps the time it first appeared, so "since" says how long it has lasted.
 */
export function noteRunProgress(
  d: CommandData<"NoteRunProgress">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  if (!ACTIVE_RUN_STATUSES.includes(run.status)) {
    throw new PreconditionFailedError(`run ${run.id} is ${run.status}; it shows no live notice`);
  }
  const current = run.progress ?? null;
  if (d.progress === null) {
    return current === null ? [] : [progressNoted(run.id, null, meta)];
  }
  if (current && sameNotice(current, d.progress)) return [];
  const since = current?.kind === d.progress.kind ? current.since : meta.at;
  return [progressNoted(run.id, { ...d.progress, since }, meta)];
}

function progressNoted(runId: RunId, progress: RunProgress | null, meta: CommandMeta): ThreadEvent {
  return { type: "RunProgressNoted", data: { runId, progress, at: meta.at } };
}

function sameNotice(
  a: NonNullable<CommandData<"NoteRunProgress">["progress"]>,
  b: NonNullable<CommandData<"NoteRunProgress">["progress"]>,
): boolean {
  return a.kind === b.kind && a.text === b.text && a.cause === b.cause;
}
