import type { StoredEvent } from "@skein/db";
import { threadStreamId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import type { RouterOutputs } from "@skein/contract";
import { PENDING_REQUEST_EVENT } from "../src/subscriptions/projection-watches.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { expectExactlySelectedLog } from "./support/selected-delivery.ts";
import { startTcpProxy } from "./support/tcp-proxy.ts";

type Graph = RouterOutputs["thread"]["graph"];
type Pending = RouterOutputs["request"]["pending"];
type Sessions = RouterOutputs["thread"]["providerSessions"];

let t: ScriptedTestServer;
const cleanups: (() => unknown)[] = [];

async function start() {
  t = await startScriptedServer();
  cleanups.push(() => t.close());
}

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const newThread = (title = "Main") => t.newThread(title);

const send = (threadId: string, chunks?: number, delayMs?: number) =>
  t.sendStreamed(threadId, chunks, delayMs);

const color = { id: "q_color", question: "Which color?", options: [{ label: "red" }] };

async function ask(threadId: string) {
  t.codex.enqueue([
    { type: "question", questions: [color] },
    { type: "text", text: "ok" },
  ]);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "ask me" });
  return runId;
}

function subscribe<T>(
  start: (
    lastEventId: string | undefined,
    handlers: Recorder<T>["handlers"],
  ) => {
    unsubscribe(): void;
  },
  lastEventId?: string,
) {
  const recorder = new Recorder<T>();
  const sub = start(lastEventId, recorder.handlers);
  cleanups.push(() => sub.unsubscribe());
  return { recorder, stop: () => sub.unsubscribe() };
}

function watchGraph(threadId: string, lastEventId?: string, client = t.client) {
  return subscribe<Graph>(
    (id, handlers) =>
      client.thread.watchGraph.subscribe(
        { threadId, ...(id ? { lastEventId: id } : {}) },
        handlers,
      ),
    lastEventId,
  );
}

function watchPending(threadId?: string, lastEventId?: string, client = t.client) {
  return subscribe<Pending>(
    (id, handlers) =>
      client.request.watchPending.subscribe(
        { ...(threadId ? { threadId } : {}), ...(id ? { lastEventId: id } : {}) },
        handlers,
      ),
    lastEventId,
  );
}

/** The graph's rule: the thread's events but deltas, and the events of the given sessions. */
function graphEvents(threadId: string, sessionIds: readonly string[]) {
  const sessions = new Set(sessionIds.map((id) => `session-${id}`));
  return (event: StoredEvent) =>
    (event.streamId === threadStreamId(threadId) && event.type !== "ItemDeltaAppended") ||
    sessions.has(event.streamId);
}

const pendingEvents = (threadId?: string) => (event: StoredEvent) =>
  (threadId === undefined
    ? event.streamId.startsWith("thread-")
    : event.streamId === threadStreamId(threadId)) && PENDING_REQUEST_EVENT.test(event.type);

describe("P3 S2: thread.watchGraph streams the execution graph as snapshot at N + events after N", () => {
  it("P3 S2: a graph snapshot tracked with its sequence, then exactly the thread's graph events; a re-read at the last event shows the new run", async () => {
    await start();
    const threadId = await newThread();
    await t.orchestrator.waitForRun(await send(threadId));
    const other = await newThread("Other");
    const sessions = await t.client.thread.providerSessions.query({ threadId });
    const sessionIds = sessions.sessions.map(({ session }) => session.id);
    expect(sessionIds).toHaveLength(1);

    const { recorder } = watchGraph(threadId);
    await recorder.until(() => recorder.snapshots.length === 1, 10_000, "the snapshot");
    const snapshot = recorder.snapshots[0]!;
    expect(recorder.messages[0]).toMatchObject({ id: String(snapshot.snapshotSequence) });
    expect(snapshot.runs).toHaveLength(1);
    expect(snapshot.providerSessions.map((s) => s.id)).toEqual(sessionIds);

    const runId = await send(threadId, 10, 5);
    await t.orchestrator.waitForRun(await send(other, 5));
    await t.orchestrator.waitForRun(runId);
    await expectExactlySelectedLog(
      t.store,
      snapshot.snapshotSequence,
      graphEvents(threadId, sessionIds),
      () => recorder.events,
    );
    expect(recorder.events.some((e) => e.type === "ItemDeltaAppended")).toBe(false);
    expect(recorder.events.some((e) => e.type === "RunFinished")).toBe(true);
    for (const message of recorder.messages.slice(1)) {
      if (message.type === "event") expect(message.id).toBe(String(message.event.sequence));
    }
    // Late checkpoint bookkeeping can still arrive while the re-read is in flight: the read must
    // reach what the client had seen when it asked, not what it saw by the time the answer came.
    const seen = recorder.events.at(-1)!.sequence;
    const reread = await t.client.thread.graph.query({ threadId });
    expect(reread.snapshotSequence).toBeGreaterThanOrEqual(seen);
    expect(reread.runs.map((run) => run.run.status)).toEqual(["completed", "completed"]);
  });

  it("P3 S2: resumed by lastEventId mid-run: no snapshot, every later graph event once and in order", async () => {
    await start();
    const threadId = await newThread();
    await t.orchestrator.waitForRun(await send(threadId));
    const sessionIds = (await t.client.thread.providerSessions.query({ threadId })).sessions.map(
      ({ session }) => session.id,
    );
    const first = watchGraph(threadId);
    await first.recorder.until(() => first.recorder.snapshots.length === 1);
    const runId = await send(threadId, 40, 10);
    await first.recorder.until(() => first.recorder.events.length >= 2, 10_000, "some events");
    first.stop();
    const cursor = first.recorder.lastId!;

    await new Promise((resolve) => setTimeout(resolve, 100)); // the run goes on unwatched
    const resumed = watchGraph(threadId, cursor);
    await t.orchestrator.waitForRun(runId);
    await expectExactlySelectedLog(
      t.store,
      Number(cursor),
      graphEvents(threadId, sessionIds),
      () => resumed.recorder.events,
    );
    expect(resumed.recorder.snapshots).toHaveLength(0);
  });

  it("P3 S2: a connection cut mid-stream resumes by Last-Event-ID: nothing missed, nothing repeated", async () => {
    await start();
    const threadId = await newThread();
    await t.orchestrator.waitForRun(await send(threadId));
    const sessionIds = (await t.client.thread.providerSessions.query({ threadId })).sessions.map(
      ({ session }) => session.id,
    );
    const proxy = await startTcpProxy(t.server.port);
    cleanups.push(() => proxy.close());
    const { recorder } = watchGraph(threadId, undefined, createSkeinClient({ url: proxy.url }));
    await recorder.until(() => recorder.snapshots.length === 1);
    const from = recorder.snapshots[0]!.snapshotSequence;

    // Deltas are not graph events: runs of short replies make the graph move often.
    const runs: string[] = [];
    for (let drop = 0; drop < 3; drop += 1) {
      const seen = recorder.events.length;
      runs.push(await send(threadId, 2));
      await recorder.until(
        () => proxy.connections > 0 && recorder.events.length > seen + 2,
        10_000,
        "a reconnection",
      );
      expect(proxy.dropAll()).toBeGreaterThan(0);
    }
    for (const runId of runs) await t.orchestrator.waitForRun(runId);
    await expectExactlySelectedLog(
      t.store,
      from,
      graphEvents(threadId, sessionIds),
      () => recorder.events,
    );
    expect(recorder.snapshots).toHaveLength(1);
  });

  it("P3: watchGraph and providerSessions of an unknown thread → NOT_FOUND (fresh or resumed)", async () => {
    await start();
    for (const lastEventId of [undefined, "1"]) {
      const { recorder } = watchGraph("thr_missing", lastEventId);
      await expect(recorder.until(() => false, 5_000, "an error")).rejects.toMatchObject({
        data: { code: "NOT_FOUND" },
      });
    }
    await expect(
      t.client.thread.providerSessions.query({ threadId: "thr_missing" }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
  });
});

describe("P4: thread.providerSessions and its watch", () => {
  it("P4: the sessions hosting the thread's provider threads, each with those threads; the watch sends the binding of a new one", async () => {
    await start();
    const threadId = await newThread();
    const empty = await t.client.thread.providerSessions.query({ threadId });
    expect(empty.sessions).toEqual([]);

    const recorder = new Recorder<Sessions>();
    const sub = t.client.thread.watchProviderSessions.subscribe({ threadId }, recorder.handlers);
    cleanups.push(() => sub.unsubscribe());
    await recorder.until(() => recorder.snapshots.length === 1, 10_000, "the snapshot");
    expect(recorder.snapshots[0]!.sessions).toEqual([]);

    await t.orchestrator.waitForRun(await send(threadId));
    await recorder.until(
      () => recorder.events.some((e) => e.type === "ProviderThreadRecorded"),
      10_000,
      "the provider thread",
    );
    expect(recorder.events.every((e) => /^Provider(Session|Thread)/.test(e.type))).toBe(true);
    const after = await t.client.thread.providerSessions.query({ threadId });
    expect(after.sessions).toHaveLength(1);
    const [{ session, providerThreads }] = after.sessions as [Sessions["sessions"][number]];
    expect(session).toMatchObject({ provider: "codex", cwd: expect.any(String) });
    expect(providerThreads.map((p) => [p.appThreadId, p.providerSessionId])).toEqual([
      [threadId, session.id],
    ]);
    // Another thread's sessions are not this thread's.
    const other = await newThread("Other");
    expect((await t.client.thread.providerSessions.query({ threadId: other })).sessions).toEqual(
      [],
    );
  });
});

describe("P5 S2: request.watchPending streams the pending requests as snapshot at N + events after N", () => {
  it("P5 S2: a question opens a request event; a re-read at it lists the request; the answer's event empties it", async () => {
    await start();
    const threadId = await newThread();
    const { recorder } = watchPending(threadId);
    await recorder.until(() => recorder.snapshots.length === 1, 10_000, "the snapshot");
    expect(recorder.snapshots[0]!.requests).toEqual([]);
    const from = recorder.snapshots[0]!.snapshotSequence;

    const runId = await ask(threadId);
    await recorder.until(
      () => recorder.events.some((e) => e.type === "RuntimeRequestOpened"),
      10_000,
      "the request",
    );
    const listed = await t.client.request.pending.query({ threadId });
    expect(listed.requests.map((r) => [r.kind, r.answerable])).toEqual([["user_input", true]]);
    await t.client.request.respond.mutate({
      requestId: listed.requests[0]!.id,
      decision: "accept",
      answers: { q_color: "red" },
    });
    await t.orchestrator.waitForRun(runId);
    await recorder.until(
      () => recorder.events.some((e) => e.type === "RuntimeRequestResolved"),
      10_000,
      "the answer",
    );
    await expectExactlySelectedLog(t.store, from, pendingEvents(threadId), () => recorder.events);
    expect(recorder.events.some((e) => e.type.startsWith("Item"))).toBe(false);
    expect((await t.client.request.pending.query({ threadId })).requests).toEqual([]);
  });

  it("P5 S2: across threads, cut mid-stream and resumed by Last-Event-ID: every request event once, in order", async () => {
    await start();
    const a = await newThread("A");
    const b = await newThread("B");
    const proxy = await startTcpProxy(t.server.port);
    cleanups.push(() => proxy.close());
    const { recorder } = watchPending(undefined, undefined, createSkeinClient({ url: proxy.url }));
    await recorder.until(() => recorder.snapshots.length === 1);
    const from = recorder.snapshots[0]!.snapshotSequence;

    const runs: string[] = [];
    for (const threadId of [a, b, a]) {
      const seen = recorder.events.length;
      runs.push(await send(threadId, 2));
      await recorder.until(
        () => proxy.connections > 0 && recorder.events.length > seen + 1,
        10_000,
        "a reconnection",
      );
      expect(proxy.dropAll()).toBeGreaterThan(0);
    }
    for (const runId of runs) await t.orchestrator.waitForRun(runId);
    await expectExactlySelectedLog(t.store, from, pendingEvents(), () => recorder.events);
    expect(recorder.snapshots).toHaveLength(1);
    expect(new Set(recorder.events.map((e) => e.streamId))).toEqual(
      new Set([threadStreamId(a), threadStreamId(b)]),
    );

    // A plain resume from the middle: no snapshot, the rest exactly once.
    const middle = recorder.events[Math.floor(recorder.events.length / 2)]!.sequence;
    const resumed = watchPending(undefined, String(middle));
    await expectExactlySelectedLog(t.store, middle, pendingEvents(), () => resumed.recorder.events);
    expect(resumed.recorder.snapshots).toHaveLength(0);
  });

  it("P5: watchPending of an unknown thread → NOT_FOUND (fresh or resumed)", async () => {
    await start();
    for (const lastEventId of [undefined, "1"]) {
      const { recorder } = watchPending("thr_missing", lastEventId);
      await expect(recorder.until(() => false, 5_000, "an error")).rejects.toMatchObject({
        data: { code: "NOT_FOUND" },
      });
    }
  });
});
