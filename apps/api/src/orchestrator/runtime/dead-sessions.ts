import { type EventStore, type LeaseKeeper, PRESENCE_PREFIX, type RuntimeLease } from "@skein/db";
import { asId } from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";

const LIVE_SESSION = ["starting", "ready", "running", "waiting"];

/**
 * Which recorded provider sessions have no runtime behind them any more. `restart`: this
 * instance is starting, so its previous incarnation's sessions (same owner id) are gone too, and
 * sessions recorded before owners existed are judged the old way (gone when no other instance is
 * alive). Otherwise (the periodic sweep) only sessions owned by an instance without a live
 * presence row count.
 */
function isDead(
  session: unknown,
  self: string,
  alive: ReadonlySet<string>,
  mode: { restart: boolean; othersAlive: boolean },
): boolean {
  const owner = (session as { owner?: string | null } | null)?.owner ?? null;
  if (owner === null) return mode.restart && !mode.othersAlive;
  if (owner === self) return mode.restart;
  return !alive.has(owner);
}

/** Marks the sessions of dead instances `stopped`; returns how many it stopped. */
export async function stopDeadSessions(
  store: EventStore,
  repo: AggregateRepository,
  leases: LeaseKeeper,
  log: Logger,
  restart: boolean,
): Promise<number> {
  const rows = await leases.list();
  const alive = livePresence(rows);
  const othersAlive = rows.some((row) => row.owner !== leases.owner && !row.expired);
  const { data } = await store.snapshot((q) =>
    q.list("provider_sessions", { status: LIVE_SESSION }),
  );
  let stopped = 0;
  for (const row of data) {
    if (!isDead(row.data, leases.owner, alive, { restart, othersAlive })) continue;
    try {
      await repo.execute({
        type: "ChangeProviderSessionStatus",
        data: { providerSessionId: asId("providerSession", row.id), status: "stopped" },
      });
      stopped += 1;
    } catch (error) {
      // Another instance's sweep may have stopped it first (stopped → stopped is refused).
      log.debug({ providerSessionId: row.id, err: error }, "dead session not marked stopped");
    }
  }
  if (stopped > 0) log.info({ stopped }, "provider sessions of dead instances marked stopped");
  return stopped;
}

function livePresence(rows: readonly RuntimeLease[]): Set<string> {
  return new Set(
    rows
      .filter((row) => row.threadId.startsWith(PRESENCE_PREFIX) && !row.expired)
      .map((row) => row.threadId.slice(PRESENCE_PREFIX.length)),
  );
}

/**
 * For the lease sweep: true once per expired presence row (an instance that died or hung since
 * the last look), so the sessions query runs only when there is something new to judge.
 */
export function newlyDeadInstances(): (rows: readonly RuntimeLease[]) => boolean {
  const seen = new Set<string>();
  return (rows) => {
    let fresh = false;
    for (const row of rows) {
      if (!row.threadId.startsWith(PRESENCE_PREFIX) || !row.expired) continue;
      const key = `${row.threadId}@${row.expiresAt.getTime()}`;
      if (!seen.has(key)) fresh = true;
      seen.add(key);
    }
    return fresh;
  };
}
