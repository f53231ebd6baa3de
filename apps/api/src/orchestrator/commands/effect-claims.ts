import type { RuntimeLease, RuntimeLeases } from "@skein/db";
import { TRPCError } from "@trpc/server";

/** Lease key prefix of a claim row; never a thread id, so lease sweeps and recovery skip it. */
export const CLAIM_PREFIX = "claim:";

/** How long a claim waits for another instance's to end before it gives up, in words. */
const DEFAULT_WAIT_MS = 120_000;
const POLL_MS = [10, 25, 50, 100, 200];

export type EffectClaimsOptions = {
  leases: RuntimeLeases;
  /** This instance's id: a restart releases its previous incarnation's claims with its leases. */
  owner: string;
  /** How long a claim outlives its holder's last renewal (renewed every third of it). */
  ttlMs: number;
  waitMs?: number;
};

/**
 * Issue 35: exclusive claims on a key (a command id's outside effects: a fork's worktree, a
 * rollback's files, a pull request, a notification) across every instance on one store. A claim
 * is a row in the store's lease table, taken atomically in the database's own transaction and
 * renewed while its holder works; a holder that dies lets it expire. Whoever holds the claim
 * performs the effects; the others wait for it to end, then read what it left (its receipt).
 * Keys are exclusive inside this process too, whatever the store (the embedded one keeps its
 * leases in memory).
 */
export class EffectClaims {
  private readonly local = new Map<string, Promise<void>>();

  constructor(private readonly options: EffectClaimsOptions) {}

  /**
   * Runs `body` while holding the claim on `key`, waiting (bounded) for another holder to end
   * first. `body` must look for what an earlier holder already did before doing it again.
   */
  async exclusive<T>(key: string, body: () => Promise<T>): Promise<T> {
    const release = await this.take(key);
    try {
      return await body();
    } finally {
      await release();
    }
  }

  private async take(key: string): Promise<() => Promise<void>> {
    const leaseKey = `${CLAIM_PREFIX}${key}`;
    const deadline = Date.now() + (this.options.waitMs ?? DEFAULT_WAIT_MS);
    // In this process: one holder at a time, the others queue behind it.
    while (this.local.has(key)) await this.local.get(key);
    let ended!: () => void;
    this.local.set(
      key,
      new Promise<void>((resolve) => {
        ended = resolve;
      }),
    );
    const endLocal = () => {
      this.local.delete(key);
      ended();
    };
    try {
      let holder: RuntimeLease | null = null;
      for (let attempt = 0; ; attempt += 1) {
        const result = await this.options.leases.acquire(
          leaseKey,
          this.options.owner,
          this.options.ttlMs,
        );
        if (result.acquired) break;
        holder = result.holder;
        if (Date.now() >= deadline) throw stillClaimed(key, holder.owner);
        await sleep(POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!);
      }
    } catch (error) {
      endLocal();
      throw error;
    }
    const renew = setInterval(
      () => {
        this.options.leases
          .renew(this.options.owner, [leaseKey], this.options.ttlMs)
          .catch(() => undefined);
      },
      Math.max(10, Math.floor(this.options.ttlMs / 3)),
    );
    renew.unref();
    return async () => {
      clearInterval(renew);
      try {
        await this.options.leases.release(leaseKey, this.options.owner);
      } catch {
        // The row expires on its own; a waiter takes it over then.
      } finally {
        endLocal();
      }
    };
  }
}

function stillClaimed(key: string, owner: string): TRPCError {
  return new TRPCError({
    code: "SERVICE_UNAVAILABLE",
    message:
      `${key} is still being applied by Skein instance ${owner}; nothing was changed here. ` +
      "Retry with the same command id to get its answer.",
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
