import type { ThreadId } from "@skein/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RouterOutputs } from "@skein/contract";
import { expectExactlyThreadLog } from "./support/delivery.ts";
import { HistorySeeder } from "./support/history-seed.ts";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

type Detail = RouterOutputs["thread"]["detail"];
type Window = NonNullable<
  Parameters<ScriptedTestServer["client"]["thread"]["detail"]["query"]>[0]["window"]
>;

let t: ScriptedTestServer;
let seed: HistorySeeder;
const cleanups: (() => unknown)[] = [];

beforeEach(async () => {
  t = await startScriptedServer();
  cleanups.push(() => t.close());
  seed = new HistorySeeder(t.store);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function threadWithRuns(runs: number, title = "Long"): Promise<ThreadId> {
  const threadId = seed.createThread(title);
  for (let i = 1; i <= runs; i += 1) seed.run(threadId, `${title} message ${i}`);
  await seed.flush();
  return threadId;
}

const detail = (threadId: string, window?: Window) =>
  t.client.thread.detail.query({ threadId, ...(window ? { window } : {}) });

const shown = (d: Detail) => d.visibleTurnItems ?? d.turnItems;
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

/** Pages back from the latest window to the first, returning the windows oldest first. */
async function pageBack(threadId: string, limit: number): Promise<Detail[]> {
  const pages: Detail[] = [];
  let window: Window = { limit };
  for (;;) {
    const page = await detail(threadId, window);
    pages.unshift(page);
    if (page.window.before === null) return pages;
    window = { limit, before: page.window.before };
  }
}

describe("B7: windowed thread detail", () => {
  it("reads the latest 50 runs by default, and pages back through every run and item exactly once", async () => {
    const threadId = await threadWithRuns(73);
    const latest = await detail(threadId);
    expect(latest.runs.map((run) => run.ordinal)).toEqual(
      Array.from({ length: 50 }, (_, i) => 24 + i),
    );
    expect(latest.window).toMatchObject({ fromRunOrdinal: 24, toRunOrdinal: 73, runCount: 73 });
    expect(latest.window.after).toBeNull();
    // A thread that is not a fork sends its items once (P7's list would only repeat them).
    expect(latest.visibleTurnItems).toBeNull();

    const whole = await detail(threadId, { limit: 500 });
    const pages = await pageBack(threadId, 7);
    expect(pages.flatMap((page) => page.runs.map((run) => run.id))).toEqual(
      whole.runs.map((run) => run.id),
    );
    expect(pages.flatMap((page) => ids(page.turnItems))).toEqual(ids(whole.turnItems));
    expect(pages.flatMap((page) => page.checkpoints.map((c) => c.id))).toEqual(
      whole.checkpoints.map((c) => c.id),
    );
    // Forward again from the first window (73 = 10 × 7 + 3: it holds runs 1–3).
    expect(pages[0]?.runs.map((run) => run.ordinal)).toEqual([1, 2, 3]);
    const second = await detail(threadId, { limit: 7, after: pages[0]?.window.after ?? "" });
    expect(second.runs.map((run) => run.ordinal)).toEqual([4, 5, 6, 7, 8, 9, 10]);

    const around = await detail(threadId, { limit: 5, aroundRun: 40 });
    expect(around.runs.map((run) => run.ordinal)).toEqual([38, 39, 40, 41, 42]);
    expect(
      around.turnItems.every((item) => item.runOrdinal !== null && item.runOrdinal >= 38),
    ).toBe(true);
  });

  it("P7 under a window: a fork of a fork pages through its sources' runs, then its own, each item once", async () => {
    const root = await threadWithRuns(12, "Root");
    const child = await seed.fork(root);
    for (let i = 1; i <= 3; i += 1) seed.run(child, `child ${i}`);
    await seed.flush();
    const grandchild = await seed.fork(child);
    for (let i = 1; i <= 4; i += 1) seed.run(grandchild, `grandchild ${i}`);
    await seed.flush();

    const whole = await detail(grandchild, { limit: 500 });
    // 12 root runs, 3 of the child, 4 of its own, plus both fork markers.
    expect(shown(whole).length).toBe(new Set(ids(shown(whole))).size);
    const pages = await pageBack(grandchild, 5);
    expect(pages.flatMap((page) => ids(shown(page)))).toEqual(ids(shown(whole)));
    // The latest window of 5 holds the fork's 4 runs and the child's last run.
    const latest = pages.at(-1) as Detail;
    expect(latest.runs.map((run) => run.ordinal)).toEqual([1, 2, 3, 4]);
    const inheritedThreads = new Set(
      shown(latest)
        .filter((item) => item.threadId !== grandchild)
        .map((item) => item.threadId),
    );
    expect([...inheritedThreads]).toEqual([child]);
    // Windows wholly in the inherited runs hold none of the fork's own runs.
    expect(pages[0]?.runs).toEqual([]);
    expect(pages[0]?.window.toRunOrdinal).toBe(0);
  });

  it("refuses a cursor of another thread's conversation with BAD_REQUEST", async () => {
    const a = await threadWithRuns(3, "A");
    const b = await threadWithRuns(3, "B");
    await expect(detail(a, { before: `${b}:2` })).rejects.toMatchObject({
      data: { code: "BAD_REQUEST" },
    });
  });
});

describe("B7 + S2: a window's snapshot, then every later event of the thread exactly once", () => {
  function watch(threadId: string, window: Window, lastEventId?: string) {
    const recorder = new Recorder<Detail>();
    const sub = t.client.thread.watchDetail.subscribe(
      { threadId, window, ...(lastEventId === undefined ? {} : { lastEventId }) },
      recorder.handlers,
    );
    cleanups.push(() => sub.unsubscribe());
    return { recorder, stop: () => sub.unsubscribe() };
  }

  it("events of runs outside the window still arrive and advance the cursor; a resume inside the window loses and repeats nothing", async () => {
    const threadId = await threadWithRuns(30);
    const first = watch(threadId, { limit: 5, aroundRun: 10 });
    await first.recorder.until(() => first.recorder.snapshots.length === 1, 10_000, "snapshot");
    const snapshot = first.recorder.snapshots[0] as Detail;
    expect(snapshot.runs.map((run) => run.ordinal)).toEqual([8, 9, 10, 11, 12]);
    const at = snapshot.snapshotSequence;

    // New runs land after the window: their events are still delivered, in order, once each.
    seed.run(threadId, "after the window 1");
    seed.run(threadId, "after the window 2");
    await seed.flush();
    await expectExactlyThreadLog(t.store, threadId, at, () => first.recorder.events);
    expect(first.recorder.lastId).toBe(String(await t.store.headSequence()));

    // Resume from an event in the middle: no snapshot, exactly the events after it.
    const middle = first.recorder.events[Math.floor(first.recorder.events.length / 2)];
    first.stop();
    const resumed = watch(threadId, { limit: 5, aroundRun: 10 }, String(middle?.sequence));
    seed.run(threadId, "after the resume");
    await seed.flush();
    await expectExactlyThreadLog(
      t.store,
      threadId,
      middle?.sequence ?? 0,
      () => resumed.recorder.events,
    );
    expect(resumed.recorder.snapshots).toEqual([]);
  });
});

describe("B7: paged, searchable shells", () => {
  it("pages the thread list newest first with a cursor and searches titles case-insensitively", async () => {
    for (let i = 0; i < 23; i += 1)
      seed.createThread(i % 5 === 0 ? `Alpha report ${i}` : `Note ${i}`);
    await seed.flush();
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await t.client.thread.shells.query({ limit: 10, ...(cursor ? { cursor } : {}) });
      seen.push(...page.threads.map((shell) => shell.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    const all = (await t.client.thread.shells.query({ limit: 500 })).threads;
    expect(seen).toEqual(all.map((shell) => shell.id));
    expect(seen).toHaveLength(23);
    const times = all.map((shell) => shell.lastActivityAt);
    expect([...times].sort().reverse()).toEqual(times);

    const found = await t.client.thread.shells.query({ query: "ALPHA" });
    expect(found.threads.map((shell) => shell.title).sort()).toEqual([
      "Alpha report 0",
      "Alpha report 10",
      "Alpha report 15",
      "Alpha report 20",
      "Alpha report 5",
    ]);
    const none = await t.client.thread.shells.query({ query: "100%" });
    expect(none.threads).toEqual([]);
  });
});
