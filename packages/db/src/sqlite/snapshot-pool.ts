import type Database from "better-sqlite3";
import { StoreClosedError } from "../errors.ts";
import type { ProjectionQuery, Snapshot } from "../event-store.ts";
import type { SqliteDatabase } from "./connection.ts";
import { ProjectionReader } from "./projection-reader.ts";

type Reader = {
  db: SqliteDatabase;
  projections: ProjectionReader;
  begin: Database.Statement<[], unknown>;
  end: Database.Statement<[], unknown>;
  head: Database.Statement<[], number>;
};

/**
 * Snapshot reads on dedicated read-only connections. Each snapshot holds one connection in a read
 * transaction for the whole (possibly async) read callback: WAL keeps that view fixed while the
 * writer commits, so the rows and `snapshotSequence` describe the same instant. A small pool lets
 * concurrent snapshots each have their own view instead of queueing behind a slow one.
 */
export class SnapshotPool {
  private readonly idle: Reader[] = [];
  private readonly waiting: ((reader: Reader) => void)[] = [];
  private opened = 0;
  private closed = false;

  constructor(
    private readonly open: () => SqliteDatabase,
    private readonly maxConnections: number,
  ) {}

  async snapshot<T>(read: (query: ProjectionQuery) => Promise<T> | T): Promise<Snapshot<T>> {
    const reader = await this.acquire();
    let active = true;
    const guard = (): ProjectionReader => {
      if (!active) throw new Error("ProjectionQuery used after its snapshot ended");
      return reader.projections;
    };
    const query: ProjectionQuery = {
      get: async (table, id) => guard().get(table, id),
      list: async (table, filter) => guard().list(table, filter),
      count: async (table, filter) => guard().count(table, filter),
      threadPage: async (filter) => guard().threadPage(filter),
      highestSibling: async (filter) => guard().highestSibling(filter),
      titleTaken: async (filter) => guard().titleTaken(filter),
      portsHeld: async (filter) => guard().portsHeld(filter),
      subagentChildren: async (threadId) => guard().subagentChildren(threadId),
      messageThreadPage: async (filter) => guard().messageThreadPage(filter),
    };
    try {
      reader.begin.run();
      try {
        // The first read of the transaction fixes its view of the WAL.
        const snapshotSequence = reader.head.get() ?? 0;
        const data = await read(query);
        return { snapshotSequence, data };
      } finally {
        reader.end.run();
      }
    } finally {
      active = false;
      this.release(reader);
    }
  }

  close(): void {
    this.closed = true;
    for (const reader of this.idle.splice(0)) reader.db.close();
  }

  private async acquire(): Promise<Reader> {
    if (this.closed) throw new StoreClosedError();
    const idle = this.idle.pop();
    if (idle !== undefined) return idle;
    if (this.opened < this.maxConnections) {
      this.opened += 1;
      return this.createReader();
    }
    return new Promise<Reader>((resolve) => this.waiting.push(resolve));
  }

  private release(reader: Reader): void {
    const next = this.waiting.shift();
    if (next !== undefined) {
      next(reader);
    } else if (this.closed) {
      reader.db.close();
      this.opened -= 1;
    } else {
      this.idle.push(reader);
    }
  }

  private createReader(): Reader {
    const db = this.open();
    return {
      db,
      projections: new ProjectionReader(db),
      begin: db.prepare("BEGIN"),
      end: db.prepare("COMMIT"),
      head: db.prepare<[], number>("SELECT COALESCE(MAX(sequence), 0) FROM events").pluck(),
    };
  }
}
