import { createHash } from "node:crypto";
import type { EventStore, ProjectionRow } from "@skein/db";
import {
  type AppThread,
  type CommandId,
  type RunId,
  type ThreadId,
  type ThreadUsageLimit,
  type UsageLimitPlan,
  usageLimitPlan,
  usageLimitStands,
} from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import type { WaitClock } from "./wait-clock.ts";

export type UsageLimitWaitsDeps = {
  repo: AggregateRepository;
  store: EventStore;
  log: Logger;
  clock: WaitClock;
  /** The wait on a limit whose provider named no reset (default 15 min). */
  defaultWaitMs?: number;
  /** Resumes in a row before the limit is left to the person (default 3). */
  maxResumes?: number;
  /** Queues the limited run again under `commandId` and starts the thread's runner. */
  resume(threadId: ThreadId, runId: RunId, commandId: CommandId): Promise<void>;
};

/**
 * Issue 32: threads waiting out a usage limit with the `wait` setting are resumed when it
 * resets. The plan is read from the thread each time (its limit, its setting, its resumes in a
 * row), never kept anywhere but in a timer: a restart plans again from the threads' rows, and a
 * second instance planning the same resume sends it under the same derived command id, so the
 * run is queued again once.
 */
export class UsageLimitWaits {
  private readonly planned = new Map<ThreadId, { key: string; cancel: () => void }>();
  private stopped = false;

  constructor(private readonly deps: UsageLimitWaitsDeps) {}

  /** At start-up: plans the thread's resume (a row of the thread list) if a limit holds it. */
  async startFrom(row: ProjectionRow): Promise<void> {
    const limit = (row.data as { usageLimit?: ThreadUsageLimit | null } | null)?.usageLimit;
    if (usageLimitStands(limit)) await this.consider(row.id as ThreadId);
  }

  /** Plans, moves or drops the thread's resume as the thread says now. Never rejects. */
  async consider(threadId: ThreadId): Promise<void> {
    try {
      await this.plan(threadId);
    } catch (error) {
      this.deps.log.warn({ err: error, threadId }, "usage limit resume could not be planned");
    }
  }

  /** Tests: when each planned resume is due. */
  dueTimes(): Map<ThreadId, string> {
    return new Map([...this.planned].map(([threadId, p]) => [threadId, p.key.split("|")[2]!]));
  }

  stop(): void {
    this.stopped = true;
    for (const planned of this.planned.values()) planned.cancel();
    this.planned.clear();
  }

  private async plan(threadId: ThreadId): Promise<void> {
    if (this.stopped) return;
    const state = await this.deps.repo.refreshThread(threadId);
    const plan = this.planOf(state.thread);
    const current = this.planned.get(threadId);
    if (plan.kind !== "resume") {
      current?.cancel();
      this.planned.delete(threadId);
      return;
    }
    const limit = state.thread!.usageLimit!;
    const key = `${limit.runId}|${limit.reachedAt}|${plan.at}`;
    if (current?.key === key) return;
    current?.cancel();
    const cancel = this.deps.clock.at(new Date(plan.at), () => {
      void this.fire(threadId, key, limit);
    });
    this.planned.set(threadId, { key, cancel });
  }

  private async fire(threadId: ThreadId, key: string, limit: ThreadUsageLimit): Promise<void> {
    if (this.planned.get(threadId)?.key === key) this.planned.delete(threadId);
    if (this.stopped) return;
    try {
      // The thread at the reset decides: the person may have changed the setting or retried.
      const state = await this.deps.repo.refreshThread(threadId);
      const now = state.thread?.usageLimit;
      const plan = this.planOf(state.thread);
      if (plan.kind !== "resume" || now?.runId !== limit.runId) return;
      if (now.reachedAt !== limit.reachedAt) return;
      if (Date.parse(plan.at) > this.deps.clock.now().getTime()) {
        await this.plan(threadId);
        return;
      }
      await this.deps.resume(threadId, limit.runId, resumeCommandId(threadId, limit));
      this.deps.log.info({ threadId, runId: limit.runId }, "usage limit reset: run resumed");
    } catch (error) {
      this.deps.log.warn({ err: error, threadId }, "usage limit resume failed");
    }
  }

  private planOf(thread: AppThread | null): UsageLimitPlan {
    if (!thread || thread.archivedAt || thread.deletedAt) return { kind: "none" };
    return usageLimitPlan(thread, {
      ...(this.deps.defaultWaitMs !== undefined ? { defaultWaitMs: this.deps.defaultWaitMs } : {}),
      ...(this.deps.maxResumes !== undefined ? { maxResumes: this.deps.maxResumes } : {}),
    });
  }
}

/** One id per limit reached: every instance and restart resuming it sends the same command. */
export function resumeCommandId(threadId: ThreadId, limit: ThreadUsageLimit): CommandId {
  const hash = createHash("sha256")
    .update(`${threadId}|${limit.runId}|${limit.reachedAt}`)
    .digest("hex")
    .slice(0, 32);
  return `cmd_limitresume_${hash}` as CommandId;
}
