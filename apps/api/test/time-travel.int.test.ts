import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EventStore, openEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { readThreadDetail } from "../src/read-models/detail.ts";
import { readThreadGraph } from "../src/read-models/graph.ts";
import { PastFolds } from "../src/read-models/past-folds.ts";
import { pastReads, usePastFolds } from "../src/read-models/past-reads.ts";
import { readShells } from "../src/read-models/shells.ts";
import { readThreadTimeline } from "../src/read-models/timeline.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { scratchSchema } from "./support/postgres.ts";

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A small seeded generator (mulberry32), so a failing sequence can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function openStore(kind: "sqlite" | "postgres"): Promise<{ store: EventStore; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "skein-tt-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  if (kind === "sqlite") return { store: await openEventStore({ dataDir: dir }), dir };
  const schema = await scratchSchema();
  cleanups.push(() => schema.drop());
  return { store: await openEventStore({ url: schema.url }), dir };
}

type Capture = {
  sequence: number;
  threadId: ThreadId;
  detail: unknown;
  twoRuns: unknown;
  graph: unknown;
  shells: unknown;
};

async function settled(orchestrator: Orchestrator, threadId: ThreadId) {
  await eventually(async () => {
    const state = await orchestrator.repository.thread(threadId);
    expect(state.activeRunId).toBeNull();
    expect([...state.runs.values()].some((r) => r.status === "queued")).toBe(false);
  });
}

describe.each(["sqlite", "postgres"] as const)("B8 time travel on %s", (kind) => {
  it(`B8: reading detail, graph and shells at a past sequence equals what was read live then (${kind}, random commands, seed 11)`, async () => {
    const { store, dir } = await openStore(kind);
    const codex = createScriptedProvider({ provider: "codex" });
    const claude = createScriptedProvider({ provider: "claude" });
    const orchestrator = await createOrchestrator({
      store,
      adapters: { codex, claude },
      dataDir: dir,
      sessionIdleMs: 0,
    });
    cleanups.push(async () => {
      await orchestrator.shutdown();
      await store.close();
    });
    const workspaceRoot = mkdtempSync(join(tmpdir(), "skein-tt-ws-"));
    cleanups.push(() => rmSync(workspaceRoot, { recursive: true, force: true }));
    const next = random(11);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;

    const { projectId } = await orchestrator.createProject({ name: "tt", workspaceRoot });
    const threads: ThreadId[] = [
      (await orchestrator.createThread({ projectId, title: "Main" })).threadId,
    ];
    const captures: Capture[] = [];
    const capture = async (threadId: ThreadId) => {
      // One consistent store snapshot for all three reads, as each of them reads live.
      const { snapshotSequence, data } = await store.snapshot(async (query) => ({
        detail: await readThreadDetail(query, threadId),
        graph: await readThreadGraph(query, threadId),
        twoRuns: await readThreadDetail(query, threadId, { limit: 2 }),
        shells: await readShells(query),
      }));
      captures.push({
        sequence: snapshotSequence,
        threadId,
        detail: { snapshotSequence, ...data.detail },
        graph: { snapshotSequence, ...data.graph },
        twoRuns: { snapshotSequence, ...data.twoRuns },
        shells: { snapshotSequence, ...data.shells },
      });
    };

    for (let step = 0; step < 14; step += 1) {
      const threadId = pick(threads);
      const action = pick(["send", "send", "fail", "fork", "rename", "archive"] as const);
      if (action === "send" || action === "fail") {
        const provider = pick(["codex", "claude"] as const);
        const scripted = provider === "codex" ? codex : claude;
        scripted.enqueue(
          action === "send"
            ? [{ type: "text", text: `reply ${step}` }]
            : [{ type: "fail", error: `failure ${step}` }],
        );
        await orchestrator.sendMessage({ threadId, text: `message ${step}`, provider });
        await settled(orchestrator, threadId);
      } else if (action === "fork") {
        const state = await orchestrator.repository.thread(threadId);
        if (state.latestStableRunId === null) continue;
        const { threadId: fork } = await orchestrator.forkThread({ threadId });
        threads.push(fork);
      } else if (action === "rename") {
        await orchestrator.updateSettings({ threadId, title: `title ${step}` });
      } else {
        const archived = (await orchestrator.repository.thread(threadId)).thread?.archivedAt;
        if (archived) await orchestrator.unarchive({ threadId });
        else await orchestrator.archive({ threadId });
      }
      await capture(threadId);
    }
    expect(captures.length).toBeGreaterThanOrEqual(10);
    expect(threads.length).toBeGreaterThanOrEqual(2);

    for (const then of captures) {
      const at = then.sequence;
      expect(await pastReads.detail(store, then.threadId, at)).toEqual(then.detail);
      expect(await pastReads.detail(store, then.threadId, at, { limit: 2 })).toEqual(then.twoRuns);
      expect(await pastReads.graph(store, then.threadId, at)).toEqual(then.graph);
      expect(await pastReads.shells(store, at)).toEqual(then.shells);
    }
    // Again from checkpoints every 3 events of a stream, read backwards and then forwards: a
    // read continued from a checkpoint equals one folded from the start.
    const folds = new PastFolds(3, 4, 12);
    usePastFolds(store, folds);
    for (const then of [...captures.slice().reverse(), ...captures]) {
      const at = then.sequence;
      expect(await pastReads.detail(store, then.threadId, at)).toEqual(then.detail);
      expect(await pastReads.graph(store, then.threadId, at)).toEqual(then.graph);
    }
    expect(folds.size).toBeGreaterThan(0);
    expect(folds.size).toBeLessThanOrEqual(12);
    // Both ways of continuing were taken: from the compact state, and (history needed) the full.
    expect(folds.counts.compact).toBeGreaterThan(0);
    expect(folds.counts.full).toBeGreaterThan(0);
    // Before a thread existed it is not found; beyond the head is refused.
    const last = threads.at(-1)!;
    const born = (await store.readStream(`thread-${last}`))[0]!.sequence;
    await expect(pastReads.detail(store, last, born - 1)).rejects.toThrow(/not found/i);
    const head = await store.headSequence();
    await expect(pastReads.detail(store, last, head + 1)).rejects.toThrow(/beyond the log's head/);

    // The scrubber's stops are the thread's own events, and each one reads as the thread then.
    for (const threadId of threads) {
      const timeline = await readThreadTimeline(store, threadId);
      const stream = await store.readStream(`thread-${threadId}`);
      expect(timeline.points.map((p) => p.sequence)).toEqual(stream.map((e) => e.sequence));
      expect(timeline.points.map((p) => p.type)).toEqual(stream.map((e) => e.type));
      expect(timeline.total).toBe(stream.length);
      expect(timeline.headSequence).toBeGreaterThanOrEqual(stream.at(-1)!.sequence);
      for (const then of captures.filter((c) => c.threadId === threadId)) {
        const stop = timeline.points.findLast((p) => p.sequence <= then.sequence)!;
        const atStop = await pastReads.detail(store, threadId, stop.sequence);
        expect({ ...atStop, snapshotSequence: then.sequence }).toEqual(then.detail);
      }
    }
    await expect(readThreadTimeline(store, "thr_missing" as ThreadId)).rejects.toThrow(
      /not found/i,
    );
  }, 120_000);
});
