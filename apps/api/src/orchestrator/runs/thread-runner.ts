import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import {
  nextQueuedRun,
  type Run,
  type RunId,
  type ThreadId,
  usageLimitStands,
} from "@skein/domain";
import { isStoreFault } from "@skein/db";
import { LeaseLostError } from "../recovery/lease-fence.ts";
import { compactsNatively } from "../transfers/skein-compaction.ts";
import { liveRun } from "./run-life-runner.ts";
import { prepareRun } from "./run-prepare.ts";
import { message, type RunnerContext, type ThreadScope, threadScope } from "./runner-context.ts";

/** Sweeps that try again to end a run taken over from a dead instance, before giving up. */
const TAKEOVER_TRIES = 5;

/** How a run's dispatch ended: its provider turn started, or it failed before (with why). */
type Dispatch =
  | { started: true }
  | { started: false; failure: string }
  /** B20: withdrawn or moved back while being dispatched; the queue moved on (run-prepare.ts). */
  | { started: false; overtaken: true };

/**
 * One thread's runner: while it holds the thread's runtime lease it executes the thread's queued
 * runs in order, one at a time. Another live instance holding the lease executes them itself; an
 * expired lease is taken over and the run its dead holder left in flight ends `interrupted`
 * before the queue moves on (R2: the next run resumes from refs). Each run goes one way down:
 * prepared and started (run-prepare.ts), then lived through the run-life workflow
 * (run-life-runner.ts); its failures are recorded through the thread's scope.
 */
export async function drainThread(ctx: RunnerContext, threadId: ThreadId): Promise<void> {
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
    await drainHeld(threadScope(ctx, threadId), takenFrom);
  } finally {
    await ctx.leases.release(threadId).catch((error: unknown) => {
      ctx.log.warn({ threadId, error: message(error) }, "runtime lease could not be released");
    });
  }
}

/** The queue, run after run, while the lease holds (after a dead holder's run is ended). */
async function drainHeld(scope: ThreadScope, takenFrom: string | undefined): Promise<void> {
  const { ctx, threadId } = scope;
  if (takenFrom !== undefined) await endOrphanedRun(scope, takenFrom);
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
        await scope.fail({ type: "FailRun", data: { threadId, runId: run.id, error: refusal } });
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
      await scope.failDurably(run.id, runFailureInWords(error));
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
    await scope.pause(ctx.breaker.delayMs(threadId));
  }
}

/**
 * The run a dead instance left in flight ends `interrupted`, or the sweep tries again. Appended
 * through the lease just taken, like everything else of the thread's runs.
 */
async function endOrphanedRun(scope: ThreadScope, deadOwner: string): Promise<void> {
  const { ctx, threadId } = scope;
  try {
    const state = await ctx.repo.refreshThread(threadId);
    const runId = state.activeRunId;
    if (runId) {
      const why = `Skein instance ${deadOwner} stopped renewing its lease`;
      await scope.appends.execute({
        type: "RecoverInterruptedRun",
        data: { threadId, runId, reason: `${why} while the run was in flight` },
      });
      ctx.log.info({ threadId, runId, why }, "in-flight run marked interrupted");
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

/**
 * Executes one queued run: prepares it (folder, baseline, its recorded start, the first turn's
 * input), lives it through the run-life workflow, and captures what it changed. A run that
 * cannot start fails once, and the drain is told why.
 */
async function dispatchRun(scope: ThreadScope, run: Run): Promise<Dispatch> {
  const { ctx, threadId } = scope;
  // Issue 25 item 5: a provider that cannot compact natively gets Skein's compaction instead.
  const capabilities = ctx.sessions.adapter(run.provider)?.capabilities ?? null;
  if (run.compact && ctx.skeinCompaction && !compactsNatively(capabilities)) {
    const failure = await ctx.skeinCompaction(run, scope.appends);
    if (failure === null) return { started: true };
    ctx.log.warn({ threadId, runId: run.id, failure }, "compaction refused");
    await scope.fail({ type: "FailRun", data: { threadId, runId: run.id, error: failure } });
    return { started: false, failure };
  }
  const begun = await prepareRun(scope, run);
  if ("overtaken" in begun) return { started: false, overtaken: true };
  if ("refused" in begun) {
    const failure = begun.refused;
    ctx.log.warn({ threadId, runId: run.id, failure }, "run failed before it started");
    await scope.fail({ type: "FailRun", data: { threadId, runId: run.id, error: failure } });
    return { started: false, failure };
  }
  await liveRun(scope, begun);
  const ended = (await ctx.repo.thread(threadId)).runs.get(run.id);
  if (ended) await ctx.checkpoints.captureRun(threadId, ended, begun.cwd);
  return { started: true };
}

/** Why a run stopped on an error of Skein's own, for the person reading the thread. */
function runFailureInWords(error: unknown): string {
  if (isStoreFault(error)) {
    return (
      `The run stopped because Skein lost its database (${message(error)}). ` +
      "What the agent did after that was not recorded; send the message again."
    );
  }
  return (
    `The run stopped on an unexpected error in Skein: ${message(error)}. ` +
    "Send the message again; if it keeps failing, the server log has the details."
  );
}
