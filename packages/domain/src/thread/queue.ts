import type { CommandData } from "../commands.ts";
import type { Run } from "../entities/run.ts";
import { ConflictError, PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { RunId } from "../ids.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { requireEntity, requireOpenThread, requireThread } from "./guards.ts";

/**
 * B20: the runs still waiting to start, in the order they will start. A run queued again by a
 * retry already ran once (its attempts are history), so it stays where it is and is not listed.
 */
export function waitingRuns(s: ThreadState): Run[] {
  const waiting: Run[] = [];
  for (const id of s.queuedRunIds) {
    const run = s.runs.get(id);
    if (run?.status === "queued" && !s.attemptIdsByRun.has(id)) waiting.push(run);
  }
  return waiting;
}

/** The refusal for a run that is no longer waiting: it started (or ended) already. */
function startedAlready(run: Run, what: string): ConflictError {
  const state = run.status === "queued" ? "was started once already" : `is ${run.status}`;
  return new ConflictError(`message ${run.ordinal} ${state}; it can no longer be ${what}`);
}

/** A run of this thread that has not started yet, or CONFLICT saying how far it got. */
function requireWaiting(s: ThreadState, runId: RunId, what: string): Run {
  const run = requireEntity(s.runs, runId, "Run");
  if (run.status !== "queued" || s.attemptIdsByRun.has(run.id)) throw startedAlready(run, what);
  return run;
}

export function editQueuedMessage(
  d: CommandData<"EditQueuedMessage">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireOpenThread(s, d.threadId);
  const run = requireWaiting(s, d.runId, "edited");
  if (run.compact) throw new PreconditionFailedError("a compaction has no message to edit");
  return [{ type: "QueuedMessageEdited", data: { runId: run.id, text: d.text, at: meta.at } }];
}

export function reorderQueue(
  d: CommandData<"ReorderQueue">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireOpenThread(s, d.threadId);
  const waiting = waitingRuns(s);
  const named = new Set(d.runIds);
  const same =
    named.size === d.runIds.length &&
    named.size === waiting.length &&
    waiting.every((run) => named.has(run.id));
  if (!same) {
    for (const runId of d.runIds) {
      const run = s.runs.get(runId);
      if (run && !waiting.includes(run)) throw startedAlready(run, "moved");
    }
    throw new ConflictError(
      `the queue changed: ${waiting.length} message(s) wait now, each must be named once; ` +
        "read the thread again and retry",
    );
  }
  return [{ type: "QueueReordered", data: { runIds: [...d.runIds], at: meta.at } }];
}

/** Withdraws a message before its run starts; a started one is CONFLICT (interrupt it instead). */
export function cancelQueuedRun(
  d: CommandData<"CancelQueuedRun">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  requireThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  if (run.status !== "queued") throw startedAlready(run, "withdrawn");
  return [{ type: "RunCancelled", data: { runId: run.id, at: meta.at } }];
}
