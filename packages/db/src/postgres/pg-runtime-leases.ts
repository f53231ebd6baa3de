import type { AcquireResult, RuntimeLease, RuntimeLeases } from "../runtime-leases.ts";
import type { PgPool } from "./connection.ts";
import { listLeases } from "../prisma/lease-list.ts";
import type { PrismaLike } from "../prisma/prisma-snapshots.ts";

type LeaseRow = {
  thread_id: string;
  owner: string;
  expires_at: Date;
  address: string | null;
  expired: boolean;
};

const SELECT = "thread_id, owner, expires_at, address, expires_at <= now() AS expired";

function toLease(row: LeaseRow): RuntimeLease {
  return {
    threadId: row.thread_id,
    owner: row.owner,
    expiresAt: row.expires_at,
    address: row.address,
    expired: row.expired,
  };
}

/**
 * Leases in the shared `runtime_leases` table. Expiry uses the database clock (`now()`), the one
 * clock every instance shares. Acquisition locks the row so two instances taking over the same
 * expired lease cannot both succeed.
 */
export class PgRuntimeLeases implements RuntimeLeases {
  constructor(
    private readonly pool: PgPool,
    /** The store's Prisma client: the list (admin, metrics, live instances) is read through it. */
    private readonly prisma: () => Promise<PrismaLike>,
  ) {}

  async acquire(
    threadId: string,
    owner: string,
    ttlMs: number,
    address: string | null = null,
  ): Promise<AcquireResult> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      const inserted = await client.query(
        `INSERT INTO runtime_leases (thread_id, owner, expires_at, address)
         VALUES ($1, $2, now() + $3 * interval '1 millisecond', $4)
         ON CONFLICT (thread_id) DO NOTHING RETURNING thread_id`,
        [threadId, owner, ttlMs, address],
      );
      if (inserted.rowCount === 1) {
        await client.query("COMMIT");
        return { acquired: true, previous: null };
      }
      const { rows } = await client.query<LeaseRow>(
        `SELECT ${SELECT} FROM runtime_leases WHERE thread_id = $1 FOR UPDATE`,
        [threadId],
      );
      const current = rows[0] ? toLease(rows[0]) : null;
      if (current && current.owner !== owner && !current.expired) {
        await client.query("COMMIT");
        return { acquired: false, holder: current };
      }
      await client.query(
        `UPDATE runtime_leases
         SET owner = $2, expires_at = now() + $3 * interval '1 millisecond', address = $4
         WHERE thread_id = $1`,
        [threadId, owner, ttlMs, address],
      );
      await client.query("COMMIT");
      return { acquired: true, previous: current };
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async renew(owner: string, threadIds: readonly string[], ttlMs: number): Promise<string[]> {
    if (threadIds.length === 0) return [];
    const { rows } = await this.pool.query<{ thread_id: string }>(
      `UPDATE runtime_leases SET expires_at = now() + $3 * interval '1 millisecond'
       WHERE owner = $1 AND thread_id = ANY($2::text[]) RETURNING thread_id`,
      [owner, threadIds, ttlMs],
    );
    return rows.map((row) => row.thread_id);
  }

  async release(threadId: string, owner: string): Promise<void> {
    await this.pool.query("DELETE FROM runtime_leases WHERE thread_id = $1 AND owner = $2", [
      threadId,
      owner,
    ]);
  }

  async get(threadId: string): Promise<RuntimeLease | null> {
    const { rows } = await this.pool.query<LeaseRow>(
      `SELECT ${SELECT} FROM runtime_leases WHERE thread_id = $1`,
      [threadId],
    );
    return rows[0] ? toLease(rows[0]) : null;
  }

  /** Through Prisma: a cold read. `get` stays on the driver, on every forwarded command's path. */
  async list(): Promise<RuntimeLease[]> {
    return listLeases(await this.prisma());
  }
}
