import { asId, ConflictError, type RunId, type ThreadId } from "@skein/domain";
import { type EventStore, type LeaseKeeper, PRESENCE_PREFIX } from "@skein/db";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { Logger } from "./logger.ts";
import type { RunExecutor } from "./run-executor.ts";

const IN_FLIGHT = ["starting", "running", "waiting"];

/**
 * R2 at start: a run left in flight ends `interrupted` (its pending requests become
 * not_resumable in the domain) unless another live instance is executing it, i.e. holds an
 * unexpired lease on its thread. Leases of this instance's previous incarnation (same instance
 * id) count as dead: no runtime handle survives a restart. Sessions still marked live are stopped
 * only when no other instance is alive, since sessions carry no owner and a live instance's
 * session must not be marked stopped under it. Returns the threads with queued runs.
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
    sessions: await q.list("provider_sessions", {
      status: ["starting", "ready", "running", "waiting"],
    }),
  }));
  for (const row of data.inFlight) {
    const threadId = asId("thread", row.threadId ?? "");
    if (ownedElsewhere.has(threadId)) continue;
    await interruptOrphanedRun(repo, threadId, asId("run", row.id), "Skein restarted", log);
  }
  for (const lease of all) {
    // Our previous incarnation's leases: their runs were just interrupted.
    if (lease.owner === leases.owner && !lease.threadId.startsWith(PRESENCE_PREFIX)) {
      await leases.release(lease.threadId);
    }
  }
  if (liveElsewhere.length === 0) {
    for (const row of data.sessions) {
      await repo.execute({
        type: "ChangeProviderSessionStatus",
        data: {
          providerSessionId: asId("providerSession", row.id),
          status: "stopped",
          lastError: null,
        },
      });
    }
  }
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
export async function threadsWithExpiredLeases(leases: LeaseKeeper): Promise<ThreadId[]> {
  const all = await leases.list();
  return all
    .filter((lease) => lease.expired && !lease.threadId.startsWith(PRESENCE_PREFIX))
    .filter((lease) => !leases.holds(lease.threadId))
    .map((lease) => asId("thread", lease.threadId));
}

/**
 * Periodically dispatches threads whose lease expired (their instance died holding runs) and
 * threads whose queued runs another instance's lease held back; dispatching takes the lease over.
 * Returns a function that stops it.
 */
export function startLeaseSweep(
  leases: LeaseKeeper,
  executor: RunExecutor,
  log: Logger,
): () => void {
  const sweep = async () => {
    executor.retryDeferred();
    for (const threadId of await threadsWithExpiredLeases(leases)) executor.kick(threadId);
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

/**
 * Steer, interrupt and respond need the live runtime, which only the thread's lease holder has.
 * Refuses naming that instance (there is no forwarding); otherwise refreshes the thread, since
 * another instance may have changed it since this one cached it.
 */
export async function requireRuntimeHere(
  leases: LeaseKeeper,
  repo: AggregateRepository,
  threadId: ThreadId,
): Promise<void> {
  if (leases.holds(threadId)) return;
  const holder = await leases.foreignHolder(threadId);
  if (holder) {
    throw new ConflictError(
      `thread ${threadId} runs on Skein instance ${holder.owner}: send this command to that ` +
        "instance (commands are not forwarded between instances)",
    );
  }
  await repo.refreshThread(threadId);
}
