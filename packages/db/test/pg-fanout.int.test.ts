import { expect, it, vi } from "vitest";
import { type EventStore, type StoredEvent, SubscriberOverflow } from "../src/index.ts";
import { LOG_LOCK_CLASS } from "../src/postgres/pg-writer.ts";
import { describePostgres } from "./support/store-factory.ts";
import { connectAdmin } from "./support/test-database.ts";

/** Collects a subscription until `until` holds; fails after `ms`. */
async function collect(
  iterable: AsyncIterable<StoredEvent>,
  until: (seen: StoredEvent[]) => boolean,
  ms = 10_000,
): Promise<StoredEvent[]> {
  const seen: StoredEvent[] = [];
  const iterator = iterable[Symbol.asyncIterator]();
  const deadline = Date.now() + ms;
  while (!until(seen)) {
    const left = deadline - Date.now();
    const next = await Promise.race([
      iterator.next(),
      new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), Math.max(0, left))),
    ]);
    if (next === "timeout") throw new Error(`timed out after ${seen.length} events`);
    if (next.done) break;
    seen.push(next.value);
  }
  await iterator.return?.();
  return seen;
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Commits an event the way another instance would, but without its NOTIFY: a notification lost
 * in transit. Only a read of the log (poll, or the next notification) can bring it in.
 */
async function commitSilently(schema: string, streamId: string): Promise<number> {
  const client = await connectAdmin();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const { rows } = await client.query("SELECT 'events'::regclass::oid::bigint AS oid");
    const lockKey = Number(rows[0]?.oid) | 0;
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${LOG_LOCK_CLASS}, ${lockKey})`);
    const head = await client.query("SELECT COALESCE(MAX(sequence), 0) + 1 AS next FROM events");
    const sequence = Number(head.rows[0]?.next);
    await client.query("INSERT INTO events VALUES ($1, $2, 1, 'Silent', '{}', NULL, 'now')", [
      sequence,
      streamId,
    ]);
    await client.query("INSERT INTO streams VALUES ($1, 1)", [streamId]);
    await client.query("COMMIT");
    return sequence;
  } finally {
    await client.end();
  }
}

async function appendMany(store: EventStore, prefix: string, count: number): Promise<void> {
  // Several writers at once, so the commits are group-committed batches.
  await Promise.all(
    Array.from({ length: 4 }, async (_, w) => {
      for (let i = w; i < count; i += 4) {
        await store.append(`${prefix}-${w}`, "any", [{ type: "T", data: { i } }]);
      }
    }),
  );
}

describePostgres("cross-instance fan-out", (stores) => {
  it("a subscriber on instance B sees, live and in order, what instance A commits (NOTIFY wake-up)", async () => {
    const schema = stores.location();
    const a = await stores.open(schema);
    // No fallback poll within the test: delivery must come from the notification.
    const b = await stores.open(schema, { pollIntervalMs: 600_000 });
    await a.append("before", 0, [{ type: "T", data: 0 }]);
    const subscription = b.subscribe({ afterSequence: 1 });
    const seen = collect(subscription, (events) => events.length === 200, 5_000);
    await appendMany(a, "a", 200);
    expect((await seen).map((e) => e.sequence)).toEqual(range(2, 201));
    expect((await seen).map((e) => e.data)).toEqual((await a.readAll(1)).map((e) => e.data));
  });

  it("writers on two instances: subscribers on both see the same complete log, in order", async () => {
    const schema = stores.location();
    const a = await stores.open(schema);
    const b = await stores.open(schema);
    const onA = collect(a.subscribe({ afterSequence: 0 }), (events) => events.length === 400);
    const onB = collect(b.subscribe({ afterSequence: 0 }), (events) => events.length === 400);
    // A subscriber attaching mid-flight on B gets everything after its cursor exactly once.
    const midway = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const cursor = await b.headSequence();
      const events = await collect(
        b.subscribe({ afterSequence: cursor }),
        (seen) => seen.length === 400 - cursor,
      );
      return { cursor, events };
    })();
    await Promise.all([appendMany(a, "a", 200), appendMany(b, "b", 200)]);
    expect((await onA).map((e) => e.sequence)).toEqual(range(1, 400));
    expect((await onB).map((e) => e.sequence)).toEqual(range(1, 400));
    expect(new Set((await onB).map((e) => e.streamId[0]))).toEqual(new Set(["a", "b"]));
    const { cursor, events } = await midway;
    expect(events.map((e) => e.sequence)).toEqual(range(cursor + 1, 400));
  });

  it("a missed notification loses nothing: the next wake-up reads it from the log, in order", async () => {
    const schema = stores.location();
    const a = await stores.open(schema);
    const b = await stores.open(schema, { pollIntervalMs: 600_000 });
    await a.append("s", 0, [{ type: "T", data: 1 }]);
    const subscription = b.subscribe({ afterSequence: 1 });
    const seen = collect(subscription, (events) => events.length === 2);
    const silent = await commitSilently(schema, "silent");
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Only A's next append (and its NOTIFY) wakes B, which reads both from its cursor.
    await a.append("s", 1, [{ type: "T", data: 2 }]);
    expect((await seen).map((e) => [e.sequence, e.type])).toEqual([
      [silent, "Silent"],
      [3, "T"],
    ]);
  });

  it("a missed notification loses nothing: the fallback poll picks it up", async () => {
    const schema = stores.location();
    const b = await stores.open(schema, { pollIntervalMs: 100 });
    const seen = collect(b.subscribe({ afterSequence: 0 }), (events) => events.length === 1, 3_000);
    await commitSilently(schema, "silent");
    expect((await seen).map((e) => e.streamId)).toEqual(["silent"]);
  });

  it("a dropped LISTEN connection reconnects and catches up on what it missed", async () => {
    const schema = stores.location();
    const a = await stores.open(schema);
    const b = await stores.open(schema, { pollIntervalMs: 600_000 });
    const seen = collect(b.subscribe({ afterSequence: 0 }), (events) => events.length === 20);
    const admin = await connectAdmin();
    try {
      // Every LISTEN backend of this schema (A's and B's): their notifications are lost.
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE query = $1 AND pid <> pg_backend_pid()`,
        [`LISTEN "skein_log_${schema}"`],
      );
      expect(killed.rowCount).toBe(2);
    } finally {
      await admin.end();
    }
    await appendMany(a, "a", 10);
    // After the reconnect (≈ 0.5 s) B reads from its cursor; later appends arrive live again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await appendMany(a, "b", 10);
    expect((await seen).map((e) => e.sequence)).toEqual(range(1, 20));
  });

  it("a slow subscriber on instance B is cut off with SubscriberOverflow", async () => {
    const schema = stores.location();
    const a = await stores.open(schema);
    const b = await stores.open(schema);
    const slow = b.subscribe({ afterSequence: 0, bufferSize: 10 });
    const iterator = slow[Symbol.asyncIterator]();
    await a.append("s", "any", [{ type: "T", data: 0 }]);
    expect((await iterator.next()).value?.sequence).toBe(1);
    for (let i = 0; i < 30; i += 1) await a.append("s", "any", [{ type: "T", data: i }]);
    // Nobody consumes meanwhile: once B has read A's events, the subscriber is cut off.
    await vi.waitFor(() => expect(b.subscriberCount).toBe(0), { timeout: 5_000 });
    const failure = await iterator.next().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SubscriberOverflow);
    expect(failure).toMatchObject({ bufferSize: 10, lastDeliveredSequence: 1 });
  });
});
