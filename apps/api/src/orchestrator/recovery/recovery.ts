import { asId, type RunId, type ThreadId } from "@skein/domain";
import { type EventStore, type LeaseKeeper, PRESENCE_PREFIX, type RuntimeLease } from "@skein/db";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { CLAIM_PREFIX } from "../commands/effect-claims.ts";
import { newlyDeadInstances, stopDeadSessions } from "../runtime/dead-sessions.ts";
import type { Logger } from "../logger.ts";

const IN_FLIGHT = ["starting", "running", "waiting"];

/** What the sweep dispatches threads through (the runs' executor). */
export type ThreadDispatcher = {
  /** Runs the thread's queued runs, taking an expired lease over. */
  kick(threadId: ThreadId): void;
  /** Tries again the threads another instance's lease held back. */
  retryDeferred(): void;
};

/**
 * R2 at start: a run left in flight ends `interrupted` (its pending requests become
 * not_resumable in the domain) unless another live instance is executing it, i.e. holds an
 * unexpired lease on its thread. Leases of this instance's previous incarnation (same instance
 * id) count as dead: no runtime handle survives a restart. Sessions still marked live are stopped
 * when their owner is dead (see dead-sessions.ts); a live instance's session is left alone.
 * Returns the threads with queued runs.
 */
export async function recoverAfterRestart(
  store: EventStore,
  repo: AggregateRepository,
  leases: LeaseKeeper,
  log: Logger,
): Promise<ThreadId[]> {
  const all = await leases.list();
  const liveElsewhere = all.filter((lease) => lease.owner !== leases.owner && !lease.expired);
  const ownedElsewhere = new Set(liveElsewhere.map((lease) => lease.threadId));
  const { data } = await store.snapshot(async (q) => ({
    inFlight: await q.list("runs", { status: IN_FLIGHT }),
    queued: await q.list("runs", { status: "queued" }),
  }));
  for (const row of data.inFlight) {
    const threadId = asId("thread", row.threadId ?? "");
    if (ownedElsewhere.has(threadId)) continue;
    try {
      await interruptOrphanedRun(repo, threadId, asId("run", row.id), "Skein restarted", log);
    } catch (error) {
      // One run the domain refuses to end (e.g. ended meanwhile) must not stop the recovery of
      // the others; it is not retried.
      log.warn({ threadId, runId: row.id, err: error }, "in-flight run not marked interrupted");
    }
  }
  for (const lease of all) {
    // Our previous incarnation's leases: their runs were just interrupted.
    if (lease.owner === leases.owner && !lease.threadId.startsWith(PRESENCE_PREFIX)) {
      await leases.release(lease.threadId);
    }
  }
  await stopDeadSessions(store, repo, leases, log, true);
  const queued = data.queued.map((row) => asId("thread", row.threadId ?? ""));
  return [...new Set(queued.filter((threadId) => !ownedElsewhere.has(threadId)))];
}

/** Ends a run whose runtime is gone (a restart, or its instance's lease expired). */
export async function interruptOrphanedRun(
  repo: AggregateRepository,
  threadId: ThreadId,
  runId: RunId,
  why: string,
  log: Logger,
): Promise<void> {
  await repo.execute({
    type: "RecoverInterruptedRun",
    data: { threadId, runId, reason: `${why} while the run was in flight` },
  });
  log.info({ threadId, runId, why }, "in-flight run marked interrupted");
}

/**
 * Threads whose runtime lease expired without being released: their instance died or hung.
 * The caller dispatches them, which takes the lease over and interrupts the orphaned run.
 */
export function threadsWithExpiredLeases(
  leases: LeaseKeeper,
  all: readonly RuntimeLease[],
): ThreadId[] {
  return all
    .filter((lease) => lease.expired && isThreadLease(lease))
    .filter((lease) => !leases.holds(lease.threadId))
    .map((lease) => asId("thread", lease.threadId));
}

/** A thread's lease, not an instance's presence row or an effect claim (same table). */
function isThreadLease(lease: RuntimeLease): boolean {
  return !lease.threadId.startsWith(PRESENCE_PREFIX) && !lease.threadId.startsWith(CLAIM_PREFIX);
}

/**
 * Periodically dispatches threads whose lease expired (their instance died holding runs) and
 * threads whose queued runs another instance's lease held back (dispatching takes the lease
 * over), and stops the provider sessions of instances that died.
 * Returns a function that stops it.
 */
export function startLeaseSweep(
  store: EventStore,
  repo: AggregateRepository,
  leases: LeaseKeeper,
  executor: ThreadDispatcher,
  log: Logger,
): () => void {
  const newlyDead = newlyDeadInstances();
  const sweep = async () => {
    executor.retryDeferred();
    const all = await leases.list();
    for (const threadId of threadsWithExpiredLeases(leases, all)) executor.kick(threadId);
    // An instance died (or hung) since the last look: its provider sessions are gone with it.
    if (newlyDead(all)) await stopDeadSessions(store, repo, leases, log, false);
  };
  const timer = setInterval(
    () => {
      sweep().catch((error: unknown) => log.warn({ err: error }, "lease sweep failed"));
    },
    Math.max(10, Math.floor(leases.ttlMs / 2)),
  );
  timer.unref();
  return () => clearInterval(timer);
}
