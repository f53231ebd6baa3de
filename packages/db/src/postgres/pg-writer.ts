import type { PreparedAppend } from "../prepare-append.ts";
import {
  type AppendOutcome,
  type BatchPlan,
  type BatchState,
  type KnownReceipt,
  planBatch,
} from "./batch-plan.ts";
import { type PgPool, type PgPoolClient, quoteIdent } from "./connection.ts";

/** Advisory-lock class for "appending to a Skein log"; the second key is the events table's oid. */
export const LOG_LOCK_CLASS = 0x736b6c31; // "skl1"

type StateRow = [
  kind: "h" | "s" | "r" | "l",
  key: string | null,
  a: number,
  b: number | null,
  c: number | null,
  receipt: string | null,
  procedure: string | null,
  payloadHash: string | null,
];

const READ_STATE = `
  SELECT 'h', NULL, COALESCE(MAX(sequence), 0), NULL::bigint, NULL::bigint, NULL, NULL, NULL
  FROM events
  UNION ALL
  SELECT 's', stream_id, version, NULL, NULL, NULL, NULL, NULL
  FROM streams WHERE stream_id = ANY($1::text[])
  UNION ALL
  SELECT 'r', command_id, stream_version, first_sequence, last_sequence, receipt, procedure,
    payload_hash
  FROM command_receipts WHERE command_id = ANY($2::text[])
  UNION ALL
  SELECT 'l', thread_id, 0, NULL, NULL, owner, NULL, NULL
  FROM runtime_leases WHERE thread_id = ANY($3::text[])`;

/**
 * Writes a batch of prepared appends in one transaction, in four round trips: take the log lock,
 * read head, versions, receipts and fencing leases, write everything (one statement of
 * data-modifying CTEs ending in pg_notify), commit.
 *
 * Ordering (S1/S2 across instances): the transaction-scoped advisory lock is held from before the
 * head is read until commit, so sequence allocation is serialized with commit. A transaction that
 * allocates N+1 has seen N committed; hence the set of visible events is always a dense prefix
 * 1..H and a reader of "events after N" can never see N+2 before N+1. The same lock makes the
 * version checks and receipt lookups authoritative across instances (S4).
 */
export class PgWriter {
  constructor(
    private readonly pool: PgPool,
    private readonly channel: string,
    private readonly lockKey: number,
  ) {}

  /** Commits the batch or throws (then nothing of it was written). */
  async commit(batch: readonly PreparedAppend[], recordedAt: string): Promise<AppendOutcome[]> {
    return underLogLock(this.pool, this.lockKey, async (client) => {
      const plan = planBatch(batch, await this.readState(client, batch), recordedAt);
      if (plan.events.length > 0) {
        const { text, values } = writeStatement(plan, this.channel);
        await client.query(text, values);
      }
      return plan.outcomes;
    });
  }

  private async readState(
    client: PgPoolClient,
    batch: readonly PreparedAppend[],
  ): Promise<BatchState> {
    const streamIds = [...new Set(batch.map((append) => append.streamId))];
    const commandIds = [
      ...new Set(batch.flatMap((append) => (append.commandId === null ? [] : [append.commandId]))),
    ];
    const fences = [...new Set(batch.flatMap((append) => append.fence?.lease ?? []))];
    const { rows } = await client.query<StateRow>({
      text: READ_STATE,
      values: [streamIds, commandIds, fences],
      rowMode: "array",
    });
    const state: BatchState = {
      head: 0,
      versions: new Map(),
      receipts: new Map(),
      leaseOwners: new Map(),
    };
    for (const [kind, key, a, b, c, receipt, procedure, payloadHash] of rows) {
      if (kind === "h") state.head = a;
      else if (kind === "s" && key !== null) state.versions.set(key, a);
      else if (kind === "l" && key !== null) state.leaseOwners.set(key, receipt ?? "");
      else if (kind === "r" && key !== null) {
        const known: KnownReceipt = {
          firstSequence: b ?? 0,
          lastSequence: c ?? 0,
          streamVersion: a,
          receiptJson: receipt ?? "null",
          procedure: procedure ?? "",
          payloadHash: payloadHash ?? "",
        };
        state.receipts.set(key, known);
      }
    }
    return state;
  }
}

type Column = [values: unknown[], type: "text" | "int" | "bigint"];

/** One INSERT … SELECT FROM unnest(arrays) per table, as data-modifying CTEs of one statement. */
function writeStatement(plan: BatchPlan, channel: string): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (value: unknown, type: string): string => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const unnest = (columns: Column[]): string =>
    `unnest(${columns.map(([column, type]) => param(column, `${type}[]`)).join(", ")})`;
  const events = plan.events.map((row) => row.event);
  const recordedAt = events[0]?.recordedAt ?? "";
  const parts: string[] = [
    `INSERT INTO events (sequence, stream_id, stream_version, type, data, command_id, recorded_at,
      raw_event_id)
    SELECT s, i, v, t, d, c, ${param(recordedAt, "text")}, r FROM ${unnest([
      [events.map((e) => e.sequence), "bigint"],
      [events.map((e) => e.streamId), "text"],
      [events.map((e) => e.streamVersion), "int"],
      [events.map((e) => e.type), "text"],
      [plan.events.map((row) => row.json), "text"],
      [events.map((e) => e.commandId), "text"],
      [plan.events.map((row) => row.rawEventId), "text"],
    ])} AS u(s, i, v, t, d, c, r)`,
    `INSERT INTO streams (stream_id, version)
    SELECT * FROM ${unnest([
      [[...plan.streams.keys()], "text"],
      [[...plan.streams.values()], "int"],
    ])}
    ON CONFLICT (stream_id) DO UPDATE SET version = excluded.version`,
  ];
  const receipts = plan.receipts;
  if (receipts.length > 0) {
    parts.push(`INSERT INTO command_receipts (command_id, stream_id, first_sequence,
      last_sequence, stream_version, receipt, procedure, payload_hash)
    SELECT * FROM ${unnest([
      [receipts.map((r) => r.commandId), "text"],
      [receipts.map((r) => r.streamId), "text"],
      [receipts.map((r) => r.firstSequence), "bigint"],
      [receipts.map((r) => r.lastSequence), "bigint"],
      [receipts.map((r) => r.streamVersion), "int"],
      [receipts.map((r) => r.receiptJson), "text"],
      [receipts.map((r) => r.procedure), "text"],
      [receipts.map((r) => r.payloadHash), "text"],
    ])}`);
    // The receipts now answer for their commands: their intents (if any) are done.
    parts.push(`DELETE FROM command_intents
    WHERE command_id = ANY(${param(
      receipts.map((r) => r.commandId),
      "text[]",
    )})`);
  }
  // Table names come from the PROJECTION_TABLES allow-list (checked in prepareAppend).
  for (const [table, writes] of plan.tables) {
    const name = quoteIdent(table);
    if (writes.deletes.size > 0) {
      parts.push(`DELETE FROM ${name} WHERE id = ANY(${param([...writes.deletes], "text[]")})`);
    }
    const puts = [...writes.puts.values()];
    if (puts.length === 0) continue;
    parts.push(`INSERT INTO ${name}
      (id, thread_id, sort_key, run_ordinal, status, data, updated_sequence)
    SELECT * FROM ${unnest([
      [puts.map((p) => p.id), "text"],
      [puts.map((p) => p.threadId), "text"],
      [puts.map((p) => p.sortKey), "int"],
      [puts.map((p) => p.runOrdinal), "int"],
      [puts.map((p) => p.status), "text"],
      [puts.map((p) => p.json), "text"],
      [puts.map((p) => p.sequence), "bigint"],
    ])}
    ON CONFLICT (id) DO UPDATE SET thread_id = excluded.thread_id, sort_key = excluded.sort_key,
      run_ordinal = excluded.run_ordinal, status = excluded.status, data = excluded.data,
      updated_sequence = excluded.updated_sequence`);
  }
  const last = String(events.at(-1)?.sequence ?? 0);
  // Data-modifying CTEs run to completion even though nothing reads them. NOTIFY is delivered at
  // commit, carrying the last sequence as a hint; listeners still read the log itself.
  const ctes = parts.map((sql, index) => `w${index} AS (${sql})`).join(",\n");
  const notify = `SELECT pg_notify(${param(channel, "text")}, ${param(last, "text")})`;
  return { text: `WITH ${ctes}\n${notify}`, values };
}

/**
 * Runs `work` in one transaction holding the log's advisory lock (see PgWriter), committed when it
 * resolves and rolled back when it throws.
 */
export async function underLogLock<T>(
  pool: PgPool,
  lockKey: number,
  work: (client: PgPoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // Lock values are integers chosen by the store, safe to inline in a simple query.
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${LOG_LOCK_CLASS}, ${lockKey})`);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    try {
      await client.query("ROLLBACK");
    } catch (rollbackError) {
      // The connection is gone; hand it back as broken so the pool replaces it.
      broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
