/**
 * Issue 3 rows: fork cost independent of history size (fork_ms, fork_cost_ratio) and process
 * memory after 1,000 threads / 15,000 messages through the scripted provider (rss_mib).
 * Everything runs through the real orchestrator and a real SQLite store in a temp dir.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { createScriptedProvider } from "@skein/scripted-provider";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function seedThread(
  o: Orchestrator,
  projectId: Parameters<Orchestrator["createThread"]>[0]["projectId"],
  runs: number,
) {
  const { threadId } = await o.createThread({ projectId });
  for (let i = 0; i < runs; i += 1) {
    const { runId } = await o.sendMessage({ threadId, text: `message ${i}` });
    await o.waitForRun(runId);
  }
  return threadId;
}

async function forkTimes(o: Orchestrator, threadId: ThreadId, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    await o.forkThread({ threadId });
    times.push(performance.now() - started);
  }
  return times;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-orch-"));
  // Kept apart from the data dir, as a user's project is.
  const workspace = mkdtempSync(path.join(tmpdir(), "skein-bench-ws-"));
  const store = openSqliteEventStore({ dataDir: dir });
  const codex = createScriptedProvider({ provider: "codex" });
  // Seeding 9,500 runs with a git capture each would take minutes and measure nothing these rows
  // report (capture has its own row); fork cost does not depend on it.
  const o = await createOrchestrator({
    captureCheckpoints: false,
    store,
    adapters: { codex },
    dataDir: dir,
    sessionIdleMs: 0,
  });
  try {
    const { projectId } = await o.createProject({ name: "bench", workspaceRoot: workspace });
    const small = await seedThread(o, projectId, 1);
    const big = await seedThread(o, projectId, benchSize(2_000, 20));
    await forkTimes(o, small, 10);
    await forkTimes(o, big, 10);
    // Alternate so machine noise hits both sides alike.
    const smallTimes: number[] = [];
    const bigTimes: number[] = [];
    for (let round = 0; round < benchSize(5, 1); round += 1) {
      smallTimes.push(...(await forkTimes(o, small, 10)));
      bigTimes.push(...(await forkTimes(o, big, 10)));
    }
    const forkMs = median(bigTimes);
    const ratio = forkMs / median(smallTimes);

    // 1,000 threads × 7.5 runs = 15,000 messages (a user message and a reply per run).
    for (let t = 0; t < benchSize(1_000, 10); t += 1)
      await seedThread(o, projectId, t % 2 === 0 ? 7 : 8);
    global.gc?.();
    const rssMib = process.memoryUsage().rss / 1024 / 1024;

    const rows = [
      {
        name: "fork_cost_ratio",
        value: +ratio.toFixed(3),
        unit: "ratio",
        target: "<= 1.5",
        pass: ratio <= 1.5,
      },
      { name: "fork_ms", value: +forkMs.toFixed(3), unit: "ms", target: "<= 5", pass: forkMs <= 5 },
      {
        name: "rss_mib",
        value: +rssMib.toFixed(1),
        unit: "MiB",
        target: "<= 300",
        pass: rssMib <= 300,
      },
    ];
    writeBenchRows("orchestrator.json", rows);
  } finally {
    await o.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

await main();
