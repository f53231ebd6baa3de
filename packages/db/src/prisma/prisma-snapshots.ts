import { StoreClosedError } from "../errors.ts";
import type { ProjectionQuery, Snapshot } from "../event-store.ts";
import { type PrismaProjectionOptions, prismaProjectionQuery } from "./projection-query.ts";

/** What a snapshot needs of a transaction client of either generated client. */
type SnapshotTx = {
  event: {
    aggregate(args: { _max: { sequence: true } }): Promise<{
      _max: { sequence: number | bigint | null };
    }>;
  };
};

/** What the store needs of a generated client (SQLite's or PostgreSQL's). */
export type PrismaLike = {
  $transaction<R>(
    fn: (tx: never) => Promise<R>,
    options?: { isolationLevel?: string; maxWait?: number; timeout?: number },
  ): Promise<R>;
  $disconnect(): Promise<void>;
};

export type PrismaSnapshotsOptions = PrismaProjectionOptions & {
  /** Creates the client on first use: the cold reads alone pay for loading Prisma. */
  connect: () => Promise<PrismaLike>;
  /** PostgreSQL: REPEATABLE READ, so every read sees the instant of the first; SQLite: none. */
  isolationLevel?: string;
};

/**
 * Snapshot reads through the generated Prisma client: one interactive transaction per snapshot,
 * whose first read (the log's head) fixes the view every later read sees (a WAL read transaction
 * on SQLite, a REPEATABLE READ snapshot on PostgreSQL), as the driver's snapshots do (S2).
 */
export class PrismaSnapshots {
  private client: Promise<PrismaLike> | null = null;
  private closed = false;

  constructor(private readonly options: PrismaSnapshotsOptions) {}

  /** The client, created on first use (for the store's other Prisma reads too). */
  prisma(): Promise<PrismaLike> {
    if (this.closed) return Promise.reject(new StoreClosedError());
    this.client ??= this.options.connect();
    return this.client;
  }

  async snapshot<T>(read: (query: ProjectionQuery) => Promise<T> | T): Promise<Snapshot<T>> {
    const client = await this.prisma();
    return client.$transaction(
      async (tx: SnapshotTx) => {
        let active = true;
        const inner = prismaProjectionQuery(tx, this.options);
        const guard = (): ProjectionQuery => {
          if (!active) throw new Error("ProjectionQuery used after its snapshot ended");
          return inner;
        };
        const query: ProjectionQuery = {
          get: (table, id) => guard().get(table, id),
          list: (table, filter) => guard().list(table, filter),
          count: (table, filter) => guard().count(table, filter),
          threadPage: (filter) => guard().threadPage(filter),
          highestSibling: (filter) => guard().highestSibling(filter),
          titleTaken: (filter) => guard().titleTaken(filter),
          portsHeld: (filter) => guard().portsHeld(filter),
          subagentChildren: (threadId) => guard().subagentChildren(threadId),
          messageThreadPage: (filter) => guard().messageThreadPage(filter),
        };
        try {
          const head = await tx.event.aggregate({ _max: { sequence: true } });
          const data = await read(query);
          return { snapshotSequence: Number(head._max.sequence ?? 0), data };
        } finally {
          active = false;
        }
      },
      {
        ...(this.options.isolationLevel ? { isolationLevel: this.options.isolationLevel } : {}),
        // Prisma ends an interactive transaction after 5 s by default; a read callback may
        // legitimately take longer on a loaded machine, so only a stuck one is cut off.
        maxWait: 30_000,
        timeout: 120_000,
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    if (client) await (await client).$disconnect();
  }
}
