import type { ProjectionQuery, Snapshot } from "../event-store.ts";
import { lastResult, type PgPool, type PgPoolClient } from "./connection.ts";
import { PgProjectionReader, StatementNames } from "./pg-projection-reader.ts";

const BEGIN_SNAPSHOT = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
  SELECT COALESCE(MAX(sequence), 0) FROM events`;

/**
 * Snapshot reads, each in its own REPEATABLE READ transaction on a pooled connection held for the
 * whole (possibly async) read callback. The transaction's snapshot is taken by its first query,
 * the head read, so `snapshotSequence` and every row the callback reads describe the same instant.
 * Because visible events always form a dense prefix (pg-writer.ts), that head is exactly the
 * last event the projection rows reflect (S2).
 */
export class PgSnapshots {
  private readonly names = new StatementNames();

  constructor(private readonly pool: PgPool) {}

  async snapshot<T>(read: (query: ProjectionQuery) => Promise<T> | T): Promise<Snapshot<T>> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    let active = true;
    const reader = new PgProjectionReader(client, this.names);
    const guard = (): PgProjectionReader => {
      if (!active) throw new Error("ProjectionQuery used after its snapshot ended");
      return reader;
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
      const opened = lastResult(await client.query({ text: BEGIN_SNAPSHOT, rowMode: "array" }));
      const head = (opened.rows[0] as [number] | undefined)?.[0] ?? 0;
      const data = await read(query);
      active = false;
      await client.query("COMMIT");
      return { snapshotSequence: head, data };
    } catch (error) {
      active = false;
      broken = await rollback(client);
      throw error;
    } finally {
      client.release(broken);
    }
  }
}

/** Ends a failed transaction; returns an error when the connection itself is unusable. */
async function rollback(client: PgPoolClient): Promise<Error | undefined> {
  try {
    await client.query("ROLLBACK");
    return undefined;
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
