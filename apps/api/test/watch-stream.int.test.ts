import fs from "node:fs";
import type { WatchMessage } from "@skein/contract";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import { isTrackedEnvelope } from "@trpc/server";
import { afterEach, describe, expect, it } from "vitest";
import { watchStream } from "../src/subscriptions/watch-stream.ts";
import { tempDir } from "./support/test-server.ts";

type Snap = { snapshotSequence: number; label: string };
let store: SqliteEventStore;
let dir: string;

function open(bufferSize: number) {
  dir = tempDir();
  store = openSqliteEventStore({ dataDir: dir, subscriberBufferSize: bufferSize });
}

afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function appendMany(count: number, stream = "thread-thr_a"): Promise<number> {
  let last = 0;
  for (let i = 0; i < count; i += 1) {
    last = (await store.append(stream, "any", [{ type: "Tick", data: { i } }])).lastSequence;
  }
  return last;
}

/** One entry per message (a snapshot or one event); `id` is the message's tracked id. */
type Item = { id: string; type: "snapshot" | "event"; sequence: number };

async function take(generator: AsyncGenerator<unknown>, count: number): Promise<Item[]> {
  const out: Item[] = [];
  while (out.length < count) {
    const next = await generator.next();
    if (next.done) break;
    if (!isTrackedEnvelope<WatchMessage<Snap>>(next.value)) throw new Error("untracked yield");
    const [id, message] = next.value;
    if (message.type === "snapshot") {
      out.push({ id, type: "snapshot", sequence: message.data.snapshotSequence });
      continue;
    }
    expect(id).toBe(String(message.event.sequence));
    out.push({ id, type: "event", sequence: message.event.sequence });
  }
  return out;
}

function watch(lastEventId: string | null, maxReplayEvents: number, signal?: AbortSignal) {
  return watchStream<Snap>({
    store,
    filter: { streamPrefix: "thread-" },
    lastEventId,
    maxReplayEvents,
    snapshot: async () => ({
      ...(await store.snapshot(() => ({ label: "snap" }))).data,
      snapshotSequence: await store.headSequence(),
    }),
    signal,
  });
}

describe("watchStream", () => {
  it("a consumer that overflows its buffer continues from the store, exactly once, when the gap is replayable", async () => {
    open(10);
    await appendMany(3);
    let subscriptions = 0;
    const subscribe = store.subscribe.bind(store);
    store.subscribe = (options) => {
      subscriptions += 1;
      return subscribe(options);
    };
    const generator = watch(null, 1_000);
    const [snapshot] = await take(generator, 1);
    expect(snapshot?.type).toBe("snapshot");
    const from = snapshot?.sequence ?? 0;
    // Not pulling while 50 events commit: the live buffer (10) overflows.
    const last = await appendMany(50);
    const rest = await take(generator, last - from);
    expect(rest.map((r) => r.type)).toEqual(rest.map(() => "event"));
    expect(rest.map((r) => r.sequence)).toEqual(
      Array.from({ length: last - from }, (_, i) => from + 1 + i),
    );
    expect(subscriptions).toBe(2);
    await generator.return(undefined);
  });

  it("…and gets a fresh snapshot when it is too far behind to replay", async () => {
    open(10);
    const generator = watch(null, 20);
    await take(generator, 1);
    const last = await appendMany(60);
    const [next] = await take(generator, 1);
    expect(next?.type).toBe("snapshot");
    expect(next?.sequence).toBe(last);
    const more = await appendMany(2);
    const after = await take(generator, 2);
    expect(after.map((r) => r.sequence)).toEqual([more - 1, more]);
    await generator.return(undefined);
  });

  it("a resume from 0 replays only the matching streams", async () => {
    open(100);
    const generator = watch("0", 1_000);
    await appendMany(2, "project-prj_a");
    const last = await appendMany(2);
    const got = await take(generator, 2);
    expect(got.map((r) => r.sequence)).toEqual([last - 1, last]);
    await generator.return(undefined);
  });

  it("ends when the signal aborts, even while waiting for events", async () => {
    open(100);
    const abort = new AbortController();
    const generator = watch(null, 1_000, abort.signal);
    await take(generator, 1);
    const pending = generator.next();
    setTimeout(() => abort.abort(), 20);
    expect((await pending).done).toBe(true);
    expect(store.subscriberCount).toBe(0);
  });
});
