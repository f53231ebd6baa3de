import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import { type ProjectId, type RunId, serializeState, type ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import { createIdGenerator } from "../../runtime/id-generator.ts";
import { HistorySeeder } from "../../../test/support/history-seed.ts";
import { COMPACT_FROM_EVENTS } from "./aggregate-cache.ts";
import { AggregateRepository } from "./aggregate-repository.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openStore(): SqliteEventStore {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-repo-"));
  const store = openSqliteEventStore({ dataDir: dir });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return store;
}

describe("AggregateRepository.refreshThread", () => {
  it("reads only the events appended since the cached state, and sees another writer's", async () => {
    const store = openStore();
    const ids = createIdGenerator();
    const now = () => new Date("2026-12-01T00:00:00Z");
    const here = new Proxy(store, {
      get(target, key, receiver) {
        if (key === "readStream") {
          return (streamId: string, after?: number) => {
            reads.push(after ?? 0);
            return target.readStream(streamId, after);
          };
        }
        const value = Reflect.get(target, key, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const reads: number[] = [];
    const mine = new AggregateRepository(here, now, ids);
    const other = new AggregateRepository(store, now, ids);
    const projectId = ids.next("project") as ProjectId;
    const threadId = ids.next("thread") as ThreadId;
    await mine.execute({
      type: "CreateProject",
      data: { projectId, title: "p", workspaceRoot: tmpdir() },
    });
    await mine.execute({
      type: "CreateThread",
      data: { threadId, projectId, title: "t", defaultProvider: "codex" },
    });
    expect((await mine.thread(threadId)).thread?.archivedAt ?? null).toBeNull();

    // Another instance changes the thread behind this one's cache.
    await other.execute({ type: "ArchiveThread", data: { threadId } });
    expect((await mine.thread(threadId)).thread?.archivedAt ?? null).toBeNull();
    reads.length = 0;
    const refreshed = await mine.refreshThread(threadId);
    expect(refreshed.thread?.archivedAt).toBeTruthy();
    // One read, starting after the cached state's last event: not a replay from the start.
    expect(reads).toHaveLength(1);
    expect(reads[0]).toBeGreaterThan(0);

    // Its commands now decide on the caught-up state (a second archive is refused).
    await expect(mine.execute({ type: "ArchiveThread", data: { threadId } })).rejects.toThrow();
  });
});

describe("AggregateRepository aggregate snapshots (issue 20)", () => {
  it("a cold load reads the stored snapshot and only the events after it", async () => {
    const store = openStore();
    const ids = createIdGenerator();
    const now = () => new Date("2026-12-01T00:00:00Z");
    const writer = new AggregateRepository(store, now, ids, 2_000, 5);
    const projectId = ids.next("project") as ProjectId;
    const threadId = ids.next("thread") as ThreadId;
    await writer.execute({
      type: "CreateProject",
      data: { projectId, title: "p", workspaceRoot: tmpdir() },
    });
    await writer.execute({
      type: "CreateThread",
      data: { threadId, projectId, title: "t0", defaultProvider: "codex" },
    });
    for (let i = 1; i <= 12; i += 1) {
      await writer.execute({ type: "UpdateThreadSettings", data: { threadId, title: `t${i}` } });
    }
    await writer.snapshotsWritten();
    const snapshot = await store.readAggregateSnapshot(`thread-${threadId}`);
    expect(snapshot?.version).toBeGreaterThanOrEqual(10);

    const reads: number[] = [];
    const counting = new Proxy(store, {
      get(target, key, receiver) {
        if (key === "readStream") {
          return async (streamId: string, after?: number) => {
            const events = await target.readStream(streamId, after);
            reads.push(events.length);
            return events;
          };
        }
        const value = Reflect.get(target, key, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const cold = new AggregateRepository(counting, now, ids, 2_000, 5);
    const state = await cold.thread(threadId);
    expect(state.thread?.title).toBe("t12");
    // Fewer events than the snapshot interval were replayed on top of the snapshot.
    expect(reads).toEqual([13 - (snapshot?.version ?? 0)]);
    // Commands decide on the restored state and append at the right version.
    await cold.execute({ type: "UpdateThreadSettings", data: { threadId, title: "t13" } });
    expect((await writer.refreshThread(threadId)).thread?.title).toBe("t13");
  });
});

describe("AggregateRepository snapshot timing (issue 28)", () => {
  it("a due snapshot is written after the command's answer; a busy thread's waits for twice the interval", async () => {
    const store = openStore();
    const ids = createIdGenerator();
    const now = () => new Date("2026-12-01T00:00:00Z");
    const repo = new AggregateRepository(store, now, ids, 2_000, 5);
    const projectId = ids.next("project") as ProjectId;
    const threadId = ids.next("thread") as ThreadId;
    const streamId = `thread-${threadId}`;
    const rename = (i: number) =>
      repo.execute({ type: "UpdateThreadSettings", data: { threadId, title: `t${i}` } });
    await repo.execute({
      type: "CreateProject",
      data: { projectId, title: "p", workspaceRoot: tmpdir() },
    });
    await repo.execute({
      type: "CreateThread",
      data: { threadId, projectId, title: "t0", defaultProvider: "codex" },
    });
    for (let i = 1; i <= 3; i += 1) await rename(i);
    await repo.snapshotsWritten();
    expect(await store.readAggregateSnapshot(streamId)).toBeNull();
    // Version 5: due. The command answers before the snapshot is written, and it follows.
    await rename(4);
    expect(await store.readAggregateSnapshot(streamId)).toBeNull();
    await repo.snapshotsWritten();
    expect((await store.readAggregateSnapshot(streamId))?.version).toBe(5);

    // A queued run makes the thread busy: the next snapshot waits for 10 events, not 5.
    await repo.execute({
      type: "QueueRun",
      data: {
        threadId,
        runId: ids.next("run") as RunId,
        messageId: ids.next("message"),
        text: "hi",
        provider: "codex",
      },
    });
    for (let i = 5; i <= 13; i += 1) {
      await rename(i);
      await repo.snapshotsWritten();
      const version = (await store.readAggregateSnapshot(streamId))?.version;
      expect(version).toBe((await store.streamVersion(streamId)) >= 15 ? 15 : 5);
    }
  });
});

/** The store with its snapshot and stream reads recorded. */
function recording(store: SqliteEventStore) {
  const snapshots: string[] = [];
  const events: number[] = [];
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      if (key === "readAggregateSnapshot") {
        return (streamId: string) => {
          snapshots.push(streamId);
          return target.readAggregateSnapshot(streamId);
        };
      }
      if (key === "readStream") {
        return async (streamId: string, after?: number) => {
          const read = await target.readStream(streamId, after);
          events.push(read.length);
          return read;
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store: proxy, snapshots, events };
}

describe("AggregateRepository compact thread states (issue 20, item 3)", () => {
  it("a command on a long thread loads its compact snapshot; one that needs an old run gets the full state", async () => {
    const store = openStore();
    const ids = createIdGenerator();
    const now = () => new Date("2026-12-01T00:00:00Z");
    const seed = new HistorySeeder(store);
    const threadId = seed.createThread("long");
    for (let i = 0; i < 40; i += 1) seed.run(threadId, `message ${i}`);
    await seed.flush();
    const oldRun = seed.state(threadId).runOrder[1] as RunId;
    const version = await store.streamVersion(`thread-${threadId}`);
    expect(version).toBeGreaterThan(COMPACT_FROM_EVENTS);

    // The first cold command replays the stream and leaves both snapshots of what it loaded.
    const first = new AggregateRepository(store, now, ids);
    await first.execute({ type: "UpdateThreadSettings", data: { threadId, title: "one" } });
    await first.snapshotsWritten();
    const full = serializeState(await first.thread(threadId));
    const compact = await store.readAggregateSnapshot(`thread-${threadId}#compact`);
    expect(compact?.version).toBe(version);
    expect(compact?.state.length ?? 0).toBeLessThan(full.length / 4);

    // A cold command reads only the compact snapshot and the one event after it.
    const cold = recording(store);
    const repo = new AggregateRepository(cold.store, now, ids);
    await repo.execute({ type: "UpdateThreadSettings", data: { threadId, title: "two" } });
    expect(cold.snapshots).toEqual([`thread-${threadId}#compact`]);
    expect(cold.events).toEqual([1]);
    // Readers get the full state: every run, the latest title.
    const state = await repo.thread(threadId);
    expect(state.runOrder).toHaveLength(40);
    expect(state.runs.size).toBe(40);
    expect(state.thread?.title).toBe("two");

    // Reusing an old run's id: the compact state cannot tell it apart from a new one, so the
    // command is decided on the full state and refused as it always was, with nothing appended.
    const again = recording(store);
    const other = new AggregateRepository(again.store, now, ids);
    const reuse = {
      type: "QueueRun" as const,
      data: {
        threadId,
        runId: oldRun,
        messageId: ids.next("message"),
        text: "again",
        provider: "codex" as const,
      },
    };
    await expect(other.execute(reuse)).rejects.toMatchObject({ code: "conflict" });
    expect(again.snapshots).toEqual([`thread-${threadId}#compact`, `thread-${threadId}`]);
    expect(await store.streamVersion(`thread-${threadId}`)).toBe(version + 2);
  });
});
