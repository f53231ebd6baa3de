/**
 * Issue 13 row (B1): events appended for one run whose provider cannot start
 * (failure_events_per_run, target ≤ 20). The real orchestrator on a real SQLite store drives the
 * real `codex app-server`, which exits at once because its CODEX_HOME does not exist; each run
 * is on its own thread, and the count includes everything appended until the log is quiet.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCodexAdapter } from "@skein/adapters-codex";
import { openSqliteEventStore } from "@skein/db";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { createOrchestrator } from "../src/orchestrator/index.ts";

const RUNS = benchSize(5, 1);
/** The log must stay still this long after a run ends for its count to be final. */
const QUIET_MS = 1_000;
const TARGET = 20;

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-fail-"));
  const workspace = mkdtempSync(path.join(tmpdir(), "skein-bench-fail-ws-"));
  const store = openSqliteEventStore({ dataDir: dir });
  const codex = createCodexAdapter({
    codexHome: path.join(dir, "no-codex-home"),
    env: { RUST_LOG: "error" },
  });
  const o = await createOrchestrator({
    store,
    adapters: { codex },
    dataDir: dir,
    sessionIdleMs: 0,
    captureCheckpoints: false,
  });
  try {
    const { projectId } = await o.createProject({ name: "bench", workspaceRoot: workspace });
    const counts: number[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const { threadId } = await o.createThread({ projectId, provider: "codex" });
      const before = await store.headSequence();
      const { runId } = await o.sendMessage({ threadId, text: `message ${i}` });
      await o.waitForRun(runId);
      for (let head = -1; head !== (await store.headSequence()); ) {
        head = await store.headSequence();
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      }
      const status = (await o.repository.thread(threadId)).runs.get(runId)?.status;
      if (status !== "failed") throw new Error(`run ${runId} ended ${status}, expected failed`);
      counts.push((await store.headSequence()) - before);
    }
    const worst = Math.max(...counts);
    const rows = [
      {
        name: "failure_events_per_run",
        value: worst,
        unit: "events",
        target: `<= ${TARGET}`,
        pass: worst <= TARGET,
      },
    ];
    writeBenchRows("failure.json", rows);
  } finally {
    await o.shutdown();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

await main();
