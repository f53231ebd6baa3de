import type { CommandData } from "../commands.ts";
import type { Run } from "../entities/run.ts";
import { type UsageLimitHit, usageLimitStands } from "../entities/usage-limit.ts";
import { ConflictError, PreconditionFailedError } from "../errors.ts";
import type { ThreadEvent } from "../events.ts";
import type { CommandMeta } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { assertTransition } from "../transitions.ts";
import { requireEntity, requireOpenThread } from "./guards.ts";
import { latestCountedRun } from "./runs.ts";

/**
 * Issue 32: the event that goes with a run's failure at its provider's usage limit. The reset is
 * absolute, from the command's own time (never a clock of the decider's), so every replay and
 * every instance reads the same moment.
 */
export function usageLimitReached(run: Run, hit: UsageLimitHit, meta: CommandMeta): ThreadEvent {
  const resetsAt =
    hit.retryAfterMs === undefined
      ? null
      : new Date(Date.parse(meta.at) + hit.retryAfterMs).toISOString();
  return {
    type: "UsageLimitReached",
    data: { threadId: run.threadId, runId: run.id, provider: run.provider, resetsAt, at: meta.at },
  };
}

/**
 * Issue 32: Skein resumes the limited run by itself: it is queued again ahead of the messages
 * the limit held (they keep their order behind it). Refused unless that limit still stands, so
 * a second resume (another instance, a restart) or one after the person acted changes nothing.
 */
export function resumeAfterUsageLimit(
  d: CommandData<"ResumeAfterUsageLimit">,
  s: ThreadState,
  meta: CommandMeta,
): ThreadEvent[] {
  const thread = requireOpenThread(s, d.threadId);
  const run = requireEntity(s.runs, d.runId, "Run");
  const limit = thread.usageLimit;
  if (!limit || limit.runId !== run.id || !usageLimitStands(limit)) {
    throw new PreconditionFailedError(`no usage limit of run ${run.id} is waiting to be resumed`);
  }
  if (s.activeRunId) throw new ConflictError(`run ${s.activeRunId} is still active; wait for it`);
  assertTransition("Run", run.status, "queued", run.id);
  // A run that went on meanwhile (the person switched provider) built on the failed one's end.
  const latest = latestCountedRun(s, true);
  if (latest && latest.id !== run.id) {
    throw new PreconditionFailedError(`run ${latest.id} ran after ${run.id}; it is not resumed`);
  }
  return [
    { type: "UsageLimitResumed", data: { runId: run.id, at: meta.at } },
    { type: "RunRetryQueued", data: { runId: run.id, at: meta.at } },
  ];
}
