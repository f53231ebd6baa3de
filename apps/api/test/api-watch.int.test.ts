import { threadStreamId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import type { RouterOutputs } from "@skein/contract";
import { expectExactlyThreadLog } from "./support/delivery.ts";
import { refusal } from "./support/errors.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { startTcpProxy } from "./support/tcp-proxy.ts";

type DetailSnapshot = RouterOutputs["thread"]["detail"];
type ShellsSnapshot = RouterOutputs["thread"]["shells"];

let t: ScriptedTestServer;
const cleanups: (() => unknown)[] = [];

async function start(options: { maxReplayEvents?: number } = {}) {
  t = await startScriptedServer(options);
  cleanups.push(() => t.close());
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const newThread = (title = "Main") => t.newThread(title);

const send = (threadId: string, chunks?: number, delayMs?: number) =>
  t.sendStreamed(threadId, chunks, delayMs);

function watchDetail(threadId: string, lastEventId?: string, client = t.client) {
  const recorder = new Recorder<DetailSnapshot>();
  const sub = client.thread.watchDetail.subscribe(
    { threadId, ...(lastEventId === undefined ? {} : { lastEventId }) },
    recorder.handlers,
  );
  cleanups.push(() => sub.unsubscribe());
  return { recorder, stop: () => sub.unsubscribe() };
}

describe("S2 over SSE: snapshot at N, then exactly the events after N", () => {
  it("watchDetail yields a snapshot tracked with its sequence, then the thread's events only", async () => {
    await start();
    const threadId = await newThread();
    await t.orchestrator.waitForRun(await send(threadId));
    const other = await newThread("Other");

    const { recorder } = watchDetail(threadId);
    await recorder.until(() => recorder.messages.length === 1, 10_000, "the snapshot");
    const snapshot = recorder.snapshots[0]!;
    expect(recorder.messages[0]).toMatchObject({
      type: "snapshot",
      id: String(snapshot.snapshotSequence),
    });
    expect(snapshot.runs.map((run) => run.status)).toEqual(["completed"]);
    // The run's checkpoint item (E6) lands when its capture ends, before or after the snapshot.
    const conversation = (snapshot.visibleTurnItems ?? snapshot.turnItems).filter(
      (item) => item.type !== "checkpoint",
    );
    expect(conversation.map((item) => item.type)).toEqual(["user_message", "assistant_message"]);

    const runId = await send(threadId, 10, 5);
    await t.orchestrator.waitForRun(await send(other, 5));
    await t.orchestrator.waitForRun(runId);
    await expectExactlyThreadLog(
      t.store,
      threadId,
      snapshot.snapshotSequence,
      () => recorder.events,
    );
    // The contract: one `{ type: "event", event }` message per event, tracked with its sequence.
    for (const message of recorder.messages.slice(1)) {
      expect(message.type).toBe("event");
      if (message.type === "event") expect(message.id).toBe(String(message.event.sequence));
    }
    expect(recorder.events.every((e) => e.streamId === threadStreamId(threadId))).toBe(true);
  });

  it("subscribers joining while a run streams miss nothing and repeat nothing at the seam", async () => {
    await start();
    const threadId = await newThread();
    const runId = await send(threadId, 60, 5);
    const watchers = [];
    for (let i = 0; i < 6; i += 1) {
      watchers.push(watchDetail(threadId).recorder);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await t.orchestrator.waitForRun(runId);
    for (const recorder of watchers) {
      await recorder.until(() => recorder.snapshots.length === 1);
      const { snapshotSequence } = recorder.snapshots[0]!;
      await expectExactlyThreadLog(t.store, threadId, snapshotSequence, () => recorder.events);
      expect(recorder.snapshots).toHaveLength(1);
    }
  });

  it("watchShells: a shells snapshot, then the events of every thread stream", async () => {
    await start();
    const a = await newThread("A");
    const recorder = new Recorder<ShellsSnapshot>();
    const sub = t.client.thread.watchShells.subscribe(undefined, recorder.handlers);
    cleanups.push(() => sub.unsubscribe());
    await recorder.until(() => recorder.snapshots.length === 1, 10_000, "the snapshot");
    expect(recorder.snapshots[0]!.threads.map((s) => s.title)).toEqual(["A"]);
    const b = await newThread("B");
    await t.orchestrator.waitForRun(await send(a));
    await recorder.until(
      () => recorder.events.some((e) => e.type === "RunFinished"),
      10_000,
      "the run",
    );
    const streams = new Set(recorder.events.map((e) => e.streamId));
    expect(streams).toEqual(new Set([threadStreamId(a), threadStreamId(b)]));
  });

  it("watchDetail of an unknown thread → NOT_FOUND (fresh or resumed)", async () => {
    await start();
    for (const lastEventId of [undefined, "1"]) {
      const { recorder } = watchDetail("thr_missing", lastEventId);
      await expect(recorder.until(() => false, 5_000, "an error")).rejects.toMatchObject({
        data: { code: "NOT_FOUND" },
      });
    }
    const missing = await refusal(
      t.client.thread.detail.query({ threadId: "thr_missing" as never }),
    );
    expect(missing.code).toBe("NOT_FOUND");
  });
});

describe("resuming with lastEventId", () => {
  it("sends only later events, from the store, exactly once and in order, without a snapshot", async () => {
    await start();
    const threadId = await newThread();
    const first = watchDetail(threadId);
    await first.recorder.until(() => first.recorder.snapshots.length === 1);
    const runId = await send(threadId, 40, 10);
    await first.recorder.until(() => first.recorder.events.length >= 5, 10_000, "some events");
    first.stop();
    const cursor = first.recorder.lastId!;

    await new Promise((resolve) => setTimeout(resolve, 100)); // the run goes on unwatched
    const resumed = watchDetail(threadId, cursor);
    await t.orchestrator.waitForRun(runId);
    await expectExactlyThreadLog(t.store, threadId, Number(cursor), () => resumed.recorder.events);
    expect(resumed.recorder.snapshots).toHaveLength(0);
  });

  it("a connection cut mid-stream resumes by itself: every event once, in order, as events.watch from zero", async () => {
    await start();
    const threadId = await newThread();
    const proxy = await startTcpProxy(t.server.port);
    cleanups.push(() => proxy.close());
    const { recorder } = watchDetail(threadId, undefined, createSkeinClient({ url: proxy.url }));
    await recorder.until(() => recorder.snapshots.length === 1);
    const from = recorder.snapshots[0]!.snapshotSequence;

    const runId = await send(threadId, 150, 20);
    for (let drop = 0; drop < 3; drop += 1) {
      const seen = recorder.events.length;
      // Reconnected and receiving again, then cut once more.
      await recorder.until(
        () => proxy.connections > 0 && recorder.events.length > seen + 2,
        10_000,
        "a reconnection",
      );
      expect(proxy.dropAll()).toBeGreaterThan(0);
    }
    await t.orchestrator.waitForRun(runId);
    await expectExactlyThreadLog(t.store, threadId, from, () => recorder.events);
    expect(recorder.snapshots).toHaveLength(1);

    const log = new Recorder<{ snapshotSequence: number }>();
    const sub = t.client.events.watch.subscribe({ threadId, lastEventId: "0" }, log.handlers);
    cleanups.push(() => sub.unsubscribe());
    const last = recorder.events.at(-1)!.sequence;
    await log.until(() => log.events.at(-1)?.sequence === last, 10_000, "the replay from zero");
    expect(log.snapshots).toHaveLength(0);
    expect(recorder.events).toEqual(log.events.filter((e) => e.sequence > from));
  });

  it("too large a gap gets a fresh snapshot, which becomes the new cursor; a small one is replayed", async () => {
    await start({ maxReplayEvents: 5 });
    const threadId = await newThread();
    const cursor = await t.store.headSequence();
    await t.orchestrator.waitForRun(await send(threadId, 10));
    expect((await t.store.headSequence()) - cursor).toBeGreaterThan(5);

    const resumed = watchDetail(threadId, String(cursor));
    await resumed.recorder.until(() => resumed.recorder.messages.length >= 1);
    expect(resumed.recorder.messages[0]?.type).toBe("snapshot");
    const snapshot = resumed.recorder.snapshots[0]!;
    expect(snapshot.snapshotSequence).toBe(await t.store.headSequence());
    expect(snapshot.runs.map((run) => run.status)).toEqual(["completed"]);
    const runId = await send(threadId, 3);
    await t.orchestrator.waitForRun(runId);
    await expectExactlyThreadLog(
      t.store,
      threadId,
      snapshot.snapshotSequence,
      () => resumed.recorder.events,
    );

    const last = resumed.recorder.events.at(-1)!.sequence;
    const small = watchDetail(threadId, String(last - 2));
    await small.recorder.until(() => small.recorder.lastId === String(last));
    expect(small.recorder.snapshots).toHaveLength(0);
  });

  it("a cursor this log never reached gets a fresh snapshot", async () => {
    await start();
    const threadId = await newThread();
    const { recorder } = watchDetail(threadId, "999999");
    await recorder.until(() => recorder.snapshots.length === 1);
    expect(recorder.snapshots[0]!.snapshotSequence).toBe(await t.store.headSequence());
  });
});
