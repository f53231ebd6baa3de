import { type ChildProcess, spawn } from "node:child_process";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import type { EventStore, StoredEvent } from "../src/index.ts";
import { LOG_LOCK_CLASS } from "../src/postgres/pg-writer.ts";
import { describePostgres, type TestStore } from "./support/store-factory.ts";
import { connectAdmin } from "./support/test-database.ts";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));
const WRITERS_FIXTURE = fileURLToPath(new URL("./fixtures/pg-writers.ts", import.meta.url));

/** Seconds of writing: the acceptance asks for 10 s (CI too); shorter only when asked to. */
const SECONDS = Number(process.env.SKEIN_PG_ORDERING_SECONDS ?? 10);
const PROCESSES = 2;
const WRITERS_PER_PROCESS = 8;

type Ack = { commandId: string; first: number; last: number };

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** One writer process; `ready` once its store is open, `done` with its acks after a clean exit. */
function writerProcess(schema: string, tag: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", WRITERS_FIXTURE, schema, String(SECONDS), String(WRITERS_PER_PROCESS), tag],
    { cwd: PACKAGE_DIR, stdio: ["pipe", "pipe", "pipe"] },
  );
  children.push(child);
  const acks: Ack[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    if (line === "ready") markReady();
    const [word, commandId, first, last] = line.split(" ");
    if (word === "ok" && commandId !== undefined) {
      acks.push({ commandId, first: Number(first), last: Number(last) });
    }
  });
  const done = new Promise<Ack[]>((resolve, reject) => {
    child.on("exit", (code) =>
      code === 0 ? resolve(acks) : reject(new Error(`writer ${tag} exited ${code}: ${stderr}`)),
    );
  });
  // An early exit (e.g. a failed open) must fail the test instead of leaving `ready` pending.
  const failed = done.then(() => new Promise<void>(() => {}));
  return {
    ready: Promise.race([ready, failed]),
    go: () => child.stdin?.write("go\n"),
    done,
  };
}

/**
 * Follows "events after N" the way a reader of the log does: it only ever asks for what comes
 * after the last sequence it saw. Any event that became visible after a higher one would be
 * skipped for good — and show up as a gap here and a difference from the final log.
 */
class Follower {
  readonly seen: StoredEvent[] = [];
  readonly gaps: string[] = [];
  polls = 0;
  private cursor = 0;

  async follow(store: EventStore, finished: () => boolean): Promise<void> {
    for (;;) {
      const wasFinished = finished();
      const page = await store.readAll(this.cursor, 2_000);
      this.polls += 1;
      for (const event of page) {
        if (event.sequence !== this.cursor + 1) {
          this.gaps.push(`after ${this.cursor} came ${event.sequence}`);
        }
        this.cursor = event.sequence;
        this.seen.push(event);
      }
      // The writers had exited before this read started: nothing more can commit.
      if (page.length === 0 && wasFinished) return;
      if (page.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }
}

/** A live subscriber recording the sequences it is given until closed. */
function listen(store: EventStore, afterSequence: number) {
  const subscription = store.subscribe({ afterSequence, bufferSize: 10_000_000 });
  const sequences: number[] = [];
  const ended = (async () => {
    for await (const event of subscription) sequences.push(event.sequence);
  })();
  return {
    sequences,
    /** Waits until the subscriber has reached `head`, then ends it. */
    async finish(head: number): Promise<number[]> {
      const deadline = Date.now() + 30_000;
      while ((sequences.at(-1) ?? afterSequence) < head && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      subscription.close();
      await ended;
      return sequences;
    },
  };
}

const fingerprint = (e: StoredEvent) =>
  `${e.sequence}/${e.streamId}/${e.streamVersion}/${e.commandId}`;

describePostgres("ordering of concurrent writers (S2)", (stores) => {
  it("control: with a plain PostgreSQL sequence a follower of 'events after N' skips an event", async () => {
    const admin = await connectAdmin();
    const slow = await connectAdmin();
    const schema = stores.location();
    try {
      await admin.query(`CREATE SCHEMA "${schema}";
        CREATE TABLE "${schema}".naive (sequence bigserial PRIMARY KEY, body text)`);
      const table = `"${schema}".naive`;
      await slow.query(`BEGIN; INSERT INTO ${table} (body) VALUES ('first, commits late')`);
      await admin.query(`INSERT INTO ${table} (body) VALUES ('second, commits first')`);
      const after0 = await admin.query(`SELECT sequence FROM ${table} WHERE sequence > 0`);
      await slow.query("COMMIT");
      const after2 = await admin.query(`SELECT sequence FROM ${table} WHERE sequence > 2`);
      // The follower saw 2, moved its cursor to 2, and sequence 1 arrived behind it: lost.
      expect(after0.rows.map((r) => Number(r.sequence))).toEqual([2]);
      expect(after2.rows).toEqual([]);
    } finally {
      await Promise.all([admin.end(), slow.end()]);
    }
  });

  it("S2: an append waits while another transaction holds the log lock, so sequences become visible in order", async () => {
    const schema = stores.location();
    const store = await stores.open(schema);
    const other = await connectAdmin();
    try {
      // Stand-in for another instance mid-append: lock taken, sequence 1 written, not committed.
      await other.query(`SET search_path TO "${schema}"`);
      const { rows } = await other.query("SELECT 'events'::regclass::oid::bigint AS oid");
      const lockKey = Number(rows[0]?.oid) | 0; // as the store folds it into int4
      await other.query(`BEGIN; SELECT pg_advisory_xact_lock(${LOG_LOCK_CLASS}, ${lockKey});
        INSERT INTO events VALUES (1, 'other', 1, 'T', '1', NULL, 'now');
        INSERT INTO streams VALUES ('other', 1)`);
      let settled = false;
      const pending = store.append("mine", 0, [{ type: "T", data: 2 }]).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);
      expect(await store.readAll(0)).toEqual([]);
      await other.query("COMMIT");
      expect(await pending).toMatchObject({ firstSequence: 2, lastSequence: 2 });
      expect((await store.readAll(0)).map((e) => [e.sequence, e.streamId])).toEqual([
        [1, "other"],
        [2, "mine"],
      ]);
    } finally {
      await other.end();
    }
  });

  it(
    `S2: ${PROCESSES} processes × ${WRITERS_PER_PROCESS} writers for ${SECONDS} s — a follower of "events after N" and live subscribers on a third instance see every committed event once, in order`,
    async () => {
      const schema = stores.location();
      const reader: TestStore = await stores.open(schema);
      const writers = Array.from({ length: PROCESSES }, (_, i) => writerProcess(schema, `p${i}`));
      await Promise.all(writers.map((w) => w.ready));

      let finished = false;
      const follower = new Follower();
      const following = follower.follow(reader, () => finished);
      const fromStart = listen(reader, 0);
      for (const w of writers) w.go();
      // A second subscriber attaches mid-run at whatever the follower has reached.
      await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1_000) / 2));
      const midCursor = follower.seen.at(-1)?.sequence ?? 0;
      const fromMiddle = listen(reader, midCursor);

      const acks = (await Promise.all(writers.map((w) => w.done))).flat();
      finished = true;
      await following;
      const head = await reader.headSequence();
      const live = await fromStart.finish(head);
      const late = await fromMiddle.finish(head);

      const log: StoredEvent[] = [];
      for (let page = await reader.readAll(0, 10_000); page.length > 0; ) {
        log.push(...page);
        page = await reader.readAll(page.at(-1)?.sequence ?? 0, 10_000);
      }
      const all = log.map((e) => e.sequence);
      expect(all).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      // The follower: no gap ever, and exactly the final log, event for event.
      expect(follower.gaps).toEqual([]);
      expect(follower.seen.map(fingerprint)).toEqual(log.map(fingerprint));
      // Live fan-out on an instance that wrote nothing: NOTIFY/poll → log reads → bus.
      expect(live).toEqual(all);
      expect(late).toEqual(all.slice(midCursor));
      // Every append that resolved in a writer is in the log at the sequences it was given, and
      // nothing else is.
      const events = acks.reduce((sum, ack) => sum + ack.last - ack.first + 1, 0);
      expect(events).toBe(head);
      for (const ack of acks) {
        const mine = log.slice(ack.first - 1, ack.last);
        expect(
          mine.every((e) => e.commandId === ack.commandId),
          ack.commandId,
        ).toBe(true);
      }
      // The processes really interleaved (their batches alternate in the log).
      const switches = log.filter(
        (e, i) => i > 0 && e.commandId?.slice(0, 2) !== log[i - 1]?.commandId?.slice(0, 2),
      ).length;
      expect(switches).toBeGreaterThan(10);
      expect(follower.polls).toBeGreaterThan(10);
      console.log(
        `ordering: ${acks.length} appends / ${head} events from ${PROCESSES}×${WRITERS_PER_PROCESS} writers in ${SECONDS} s, ${switches} process switches, ${follower.polls} follower reads`,
      );
    },
    SECONDS * 1_000 + 90_000,
  );
});
