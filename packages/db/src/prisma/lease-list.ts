import type { RuntimeLease } from "../runtime-leases.ts";
import type { PrismaLike } from "./prisma-snapshots.ts";

type LeaseRecord = { threadId: string; owner: string; expiresAt: Date; address: string | null };

/** What the lease list needs of the PostgreSQL client (its batch form runs in one transaction). */
type LeaseClient = {
  runtimeLeases: { findMany(args: { orderBy: { threadId: "asc" } }): Promise<LeaseRecord[]> };
  $queryRaw(query: TemplateStringsArray): Promise<{ now: Date }[]>;
  $transaction<P extends readonly Promise<unknown>[]>(
    batch: [...P],
  ): Promise<{ [K in keyof P]: Awaited<P[K]> }>;
};

/**
 * Every runtime lease, by thread id, through the generated client. Expiry is judged by the
 * database clock, the one every instance shares: `now()` read in the same transaction as the
 * rows is the instant the driver's `expires_at <= now()` compares with. The column is a
 * TIMESTAMP without zone (the session's wall clock), so the clock is read as one too: both
 * then come back through the adapter alike, whatever the session's time zone.
 */
export async function listLeases(prisma: PrismaLike): Promise<RuntimeLease[]> {
  const client = prisma as unknown as LeaseClient;
  const [records, clock] = await client.$transaction([
    client.runtimeLeases.findMany({ orderBy: { threadId: "asc" } }),
    client.$queryRaw`SELECT now()::timestamp(3) AS now`,
  ]);
  const now = clock[0]?.now ?? new Date();
  return records.map((record) => ({
    threadId: record.threadId,
    owner: record.owner,
    expiresAt: record.expiresAt,
    address: record.address,
    expired: record.expiresAt.getTime() <= now.getTime(),
  }));
}
