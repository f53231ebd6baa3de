import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EventStore, openEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { createScriptedProvider } from "@skein/scripted-provider";
import { expect } from "vitest";
import { createOrchestrator, type Orchestrator } from "../../src/orchestrator/index.ts";
import { readThreadDetail } from "../../src/read-models/detail.ts";
import { readThreadGraph } from "../../src/read-models/graph.ts";
import { pastReads } from "../../src/read-models/past-reads.ts";
import { readShells } from "../../src/read-models/shells.ts";
import { eventually } from "./orchestrator-harness.ts";
import { scratchSchema } from "./postgres.ts";

/** B8 property tests: a random command history and what was read live along the way. */

/** A small seeded generator (mulberry32), so a failing sequence can be replayed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type StoreKind = "sqlite" | "postgres";

/** Where a store's data lives, so another store instance can open the same data (a restart). */
export type StoreLocation = { dir: string; open(): Promise<EventStore> };

export async function storeLocation(
  kind: StoreKind,
  cleanups: Array<() => unknown>,
): Promise<StoreLocation> {
  const dir = mkdtempSync(join(tmpdir(), "skein-tt-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  if (kind === "sqlite") return { dir, open: () => openEventStore({ dataDir: dir }) };
  const schema = await scratchSchema();
  cleanups.push(() => schema.drop());
  return { dir, open: () => openEventStore({ url: schema.url }) };
}

/** A fresh store of `kind` and its location (to open it again, as after a restart); `cleanups` closes and removes it. */
export async function openFreshStore(
  kind: StoreKind,
  cleanups: Array<() => unknown>,
): Promise<{ location: StoreLocation; store: EventStore }> {
  const location = await storeLocation(kind, cleanups);
  const store = await location.open();
  cleanups.push(() => store.close());
  return { location, store };
}

export type Capture = {
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

/**
 * Runs `steps` random commands (send, fail, fork, rename, archive) through a real orchestrator
 * with scripted providers and captures every read model live after each one. The orchestrator
 * is shut down before this returns; the store stays open.
 */
export async function writeHistory(
  store: EventStore,
  dir: string,
  options: { seed: number; steps: number },
  cleanups: Array<() => unknown>,
): Promise<{ captures: Capture[]; threads: ThreadId[] }> {
  const codex = createScriptedProvider({ provider: "codex" });
  const claude = createScriptedProvider({ provider: "claude" });
  const orchestrator = await createOrchestrator({
    store,
    adapters: { codex, claude },
    dataDir: dir,
    sessionIdleMs: 0,
  });
  const workspaceRoot = mkdtempSync(join(tmpdir(), "skein-tt-ws-"));
  cleanups.push(() => rmSync(workspaceRoot, { recursive: true, force: true }));
  const next = random(options.seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const captures: Capture[] = [];
  const capture = async (threadId: ThreadId) => {
    // One consistent store snapshot for all the reads, as each of them reads live.
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
  try {
    const { projectId } = await orchestrator.createProject({ name: "tt", workspaceRoot });
    const threads: ThreadId[] = [
      (await orchestrator.createThread({ projectId, title: "Main" })).threadId,
    ];
    for (let step = 0; step < options.steps; step += 1) {
      const threadId = pick(threads);
      const action = pick(["send", "send", "fail", "fork", "rename", "archive"] as const);
      if (action === "send" || action === "fail") {
        const provider = pick(["codex", "claude"] as const);
        const scripted = provider === "codex" ? codex : claude;
        // An archived thread refuses new runs: nothing to capture.
        if ((await orchestrator.repository.thread(threadId)).thread?.archivedAt) continue;
        scripted.enqueue(
          action === "send"
            ? [{ type: "text", text: `reply ${step}` }]
            : [{ type: "fail", error: `failure ${step}`, kind: "invalid_request" }],
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
    return { captures, threads };
  } finally {
    await orchestrator.shutdown();
  }
}

/** The past reads at the captured sequence answer exactly what was read live there. */
export async function readsAsLive(store: EventStore, then: Capture): Promise<void> {
  const at = then.sequence;
  expect(await pastReads.detail(store, then.threadId, at)).toEqual(then.detail);
  expect(await pastReads.detail(store, then.threadId, at, { limit: 2 })).toEqual(then.twoRuns);
  expect(await pastReads.graph(store, then.threadId, at)).toEqual(then.graph);
}
