import { afterEach, expect, it } from "vitest";
import { channelName, createPool, type PgPool, resolveTarget } from "../src/postgres/connection.ts";
import { PgWriter } from "../src/postgres/pg-writer.ts";
import { prepareAppend } from "../src/prepare-append.ts";
import {
  connectAdmin,
  openAt,
  TEST_DATABASE_URL,
  uniqueSchemaName,
} from "./support/test-database.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The pool, with a gate after each transaction's state read: the writer's session then sits
 * idle in its transaction for as long as the test likes, as it does when the event loop stalls.
 */
function gatedPool(pool: PgPool) {
  let gate: { opened: Promise<void>; reached: () => void } | null = null;
  const gated = {
    connect: async () => {
      const client = await pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      return Object.assign(Object.create(client), {
        query: async (...args: unknown[]) => {
          const result = await query(...args);
          const text = String((args[0] as { text?: string }).text ?? args[0]);
          if (gate && text.includes("command_receipts")) {
            gate.reached();
            await gate.opened;
          }
          return result;
        },
        release: (error?: Error) => client.release(error),
      });
    },
  };
  const hold = () => {
    let open!: () => void;
    let reached!: () => void;
    const reachedAt = new Promise<void>((resolve) => {
      reached = resolve;
    });
    gate = { opened: new Promise<void>((resolve) => (open = resolve)), reached };
    return {
      reached: reachedAt,
      open: () => {
        gate = null;
        open();
      },
    };
  };
  return { pool: gated as unknown as PgPool, hold };
}

it("a writer session ended mid-transaction fails that batch only: no crash, the next batch commits", async () => {
  const schema = uniqueSchemaName("skein_writer");
  const store = await openAt("postgres", schema);
  cleanups.push(async () => {
    const admin = await connectAdmin();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  cleanups.push(() => store.close());
  const real = createPool(resolveTarget(TEST_DATABASE_URL, schema), "write-gated", 1);
  cleanups.push(() => real.end());
  const { pool, hold } = gatedPool(real);
  const writer = new PgWriter(pool, channelName(schema), 0x5eed);
  const append = (data: unknown) => prepareAppend("s-1", "any", [{ type: "T", data }], {});

  const gate = hold();
  const stalled = writer.commit([append(1)], new Date().toISOString());
  stalled.catch(() => undefined);
  await gate.reached;
  const admin = await connectAdmin();
  try {
    const ended = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = 'skein-write-gated' AND state = 'idle in transaction'`,
    );
    expect(ended.rowCount).toBe(1);
    // The FATAL reaches the client while no query of it runs; wait until the server is done.
    await expect
      .poll(async () => {
        const { rows } = await admin.query(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'skein-write-gated'",
        );
        return rows[0].n;
      })
      .toBe(0);
  } finally {
    await admin.end();
  }
  gate.open();
  await expect(stalled).rejects.toThrow();
  const [outcome] = await writer.commit([append(2)], new Date().toISOString());
  expect(outcome?.ok).toBe(true);
  expect((await store.readStream("s-1")).map((event) => event.data)).toEqual([2]);
});
