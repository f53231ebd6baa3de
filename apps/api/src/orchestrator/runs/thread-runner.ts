import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { nextQueuedRun, type RunId, usageLimitStands } from "@skein/domain";
import { LeaseLostError } from "../recovery/lease-fence.ts";
import { interruptOrphanedRun } from "../recovery/recovery.ts";
import { type Dispatch, dispatchRun } from "./run-dispatch.ts";
import { failRun, failRunDurably, runFailureInWords } from "./run-failures.ts";
import { message, pause, type ThreadScope } from "./runner-context.ts";

/** Sweeps that try again to end a run taken over from a dead instance, before giving up. */
const TAKEOVER_TRIES = 5;

/**
 * One thread's runner: while it holds the thread's runtime lease it executes the thread's queued
 * runs in order, one at a time. Another live instance holding the lease executes them itself; an
 * expired lease is taken over and the run its dead holder left in flight ends `interrupted`
 * before the queue moves on (R2: the next run resumes from refs).
 */
export class ThreadRunner {
  constructor(private readonly scope: ThreadScope) {}

  async drain(): Promise<void> {
    const { ctx, threadId } = this.scope;
    const lease = await ctx.leases.acquire(threadId);
    if (!lease.acquired) {
      // Its holder drains our queued run if it sees it; `retryDeferred` covers the case where
      // the holder released the lease just before our run was queued.
      ctx.deferred.add(threadId);
      ctx.log.info({ threadId, owner: lease.holder.owner }, "thread runtime on another instance");
      return;
    }
    ctx.lost.delete(threadId);
    try {
      const previous = lease.previous;
      const takenFrom =
        previous && previous.owner !== ctx.leases.owner && previous.expired
          ? previous.owner
          : ctx.unfinishedTakeovers.get(threadId)?.deadOwner;
      if (takenFrom !== undefined) await this.endOrphanedRun(takenFrom);
      await this.drainHeld();
    } finally {
      await ctx.leases.release(threadId).catch((error: unknown) => {
        ctx.log.warn({ threadId, error: message(error) }, "runtime lease could not be released");
      });
    }
  }

  /** The run a dead instance left in flight ends `interrupted`, or the sweep tries again. */
  private async endOrphanedRun(deadOwner: string): Promise<void> {
    const { ctx, threadId } = this.scope;
    try {
      const state = await ctx.repo.refreshThread(threadId);
      if (state.activeRunId) {
        const why = `Skein instance ${deadOwner} stopped renewing its lease`;
        await interruptOrphanedRun(ctx.repo, threadId, state.activeRunId, why, ctx.log);
      }
      ctx.unfinishedTakeovers.delete(threadId);
    } catch (error) {
      const tries = (ctx.unfinishedTakeovers.get(threadId)?.tries ?? 0) + 1;
      if (tries < TAKEOVER_TRIES) {
        ctx.unfinishedTakeovers.set(threadId, { deadOwner, tries });
        ctx.deferred.add(threadId);
      } else {
        ctx.unfinishedTakeovers.delete(threadId);
        ctx.log.error(
          { threadId, deadOwner, tries, error: message(error) },
          "the run a dead instance left could not be ended; no more tries",
        );
      }
      throw error;
    }
  }

  private async drainHeld(): Promise<void> {
    const scope = this.scope;
    const { ctx, threadId } = scope;
    // Each run is dispatched at most once per drain: one picked again means nothing moved it,
    // and trying again would spin (B1).
    const dispatched = new Set<RunId>();
    for (let refreshed = false; ; ) {
      // A drain never monopolizes the event loop: health checks and signals get their turn.
      await yieldToEventLoop();
      if (ctx.stopping || !ctx.leases.holds(threadId)) return;
      const state = await ctx.repo.thread(threadId);
      if (!state.thread || state.activeRunId) return;
      // Issue 32: the limit holds its provider's queued runs (nextQueuedRun passes them over)
      // until its resume, planned here, or the person lets them go.
      if (usageLimitStands(state.thread.usageLimit)) ctx.usageLimitHeld?.(threadId);
      const run = nextQueuedRun(state);
      if (!run) {
        // Another instance may have queued a run our cache has not seen; look once before
        // giving the lease up, or that run would wait for nobody.
        if (refreshed) return;
        await ctx.repo.refreshThread(threadId);
        refreshed = true;
        continue;
      }
      refreshed = false;
      if (dispatched.has(run.id)) {
        ctx.log.error(
          { threadId, runId: run.id },
          "queued run could not be dispatched; runner stops",
        );
        return;
      }
      dispatched.add(run.id);
      let outcome: Dispatch = { started: true };
      try {
        const refusal = ctx.breaker.refusal(threadId, run);
        if (refusal) {
          await failRun(scope, run.id, refusal);
          continue;
        }
        outcome = await dispatchRun(scope, run);
      } catch (error) {
        if (error instanceof LeaseLostError || scope.lost()) {
          ctx.log.warn({ threadId, runId: run.id }, "run abandoned: its lease was taken over");
          return;
        }
        ctx.log.error({ threadId, runId: run.id, error: message(error) }, "run failed to execute");
        outcome = { started: false, failure: message(error) };
        // Issue 35: the run's end is recorded once the store answers again (a database
        // restart), or the thread would stay "running" with nobody running it.
        await failRunDurably(scope, run.id, runFailureInWords(error));
      } finally {
        ctx.turns.end(threadId);
        ctx.settle(run.id);
      }
      if (scope.halted()) return;
      if ("overtaken" in outcome) {
        dispatched.delete(run.id);
        continue;
      }
      if (outcome.started) {
        ctx.breaker.succeeded(threadId);
        continue;
      }
      const latest = await ctx.repo.thread(threadId);
      ctx.breaker.failed(threadId, outcome.failure, latest.runOrder.length);
      // Backoff before the next run of this thread: a cause outside Skein (a folder, a binary,
      // a network) is given time, and a thread of failing runs cannot flood the log.
      await pause(ctx, ctx.breaker.delayMs(threadId));
    }
  }
}
