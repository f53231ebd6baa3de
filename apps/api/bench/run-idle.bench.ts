/**
 * Issue 20 row run_idle_ratio: send → run settled (its checkpoint recorded) on a thread of 1,000
 * runs ÷ the same on a thread of 5 runs. After each run the drain re-reads the thread; that read
 * must cost what changed, not the thread's history. Real orchestrator, real SQLite, real git
 * checkpoints, the scripted provider.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import type { ThreadId } from "@skein/domain";
import { createScriptedProvider } from "@skein/scripted-provider";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";

const BIG_RUNS = Number(process.env.SKEIN_BENCH_IDLE_RUNS ?? benchSize(1_000, 10));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function sendAndSettle(o: Orchestrator, threadId: ThreadId, text: string): Promise<number> {
  const started = performance.now();
  const { runId } = await o.sendMessage({ threadId, text });
  await o.waitForRun(runId);
  return performance.now() - started;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-idle-"));
  const workspace = mkdtempSync(path.join(tmpdir(), "skein-bench-idle-ws-"));
  writeFileSync(path.join(workspace, "README.md"), "bench\n");
  const store = openSqliteEventStore({ dataDir: dir });
  const codex = createScriptedProvider({ provider: "codex" });
  const o = await createOrchestrator({
    store,
    adapters: { codex },
    dataDir: dir,
    sessionIdleMs: 0,
  });
  try {
    const { projectId } = await o.createProject({ name: "bench", workspaceRoot: workspace });
    const small = (await o.createThread({ projectId })).threadId;
    const big = (await o.createThread({ projectId })).threadId;
    for (let i = 0; i < 5; i += 1) await sendAndSettle(o, small, `small ${i}`);
    for (let i = 0; i < BIG_RUNS; i += 1) await sendAndSettle(o, big, `big ${i}`);
    // Alternate so machine noise hits both sides alike.
    const smallTimes: number[] = [];
    const bigTimes: number[] = [];
    for (let round = 0; round < benchSize(15, 2); round += 1) {
      smallTimes.push(await sendAndSettle(o, small, `small round ${round}`));
      bigTimes.push(await sendAndSettle(o, big, `big round ${round}`));
    }
    const ratio = median(bigTimes) / median(smallTimes);
    const rows = [
      {
        name: "run_idle_ratio",
        value: +ratio.toFixed(3),
        unit: "ratio",
        target: "<= 1.3",
        pass: ratio <= 1.3,
      },
    ];
    writeBenchRows("run-idle.json", rows);
    console.log(
      `send → settled: ${median(smallTimes).toFixed(1)} ms at 5 runs, ${median(bigTimes).toFixed(1)} ms at ${BIG_RUNS} runs`,
    );
  } finally {
    await o.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

await main();
