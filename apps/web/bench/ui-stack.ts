// The UI bench's back end, in this process: the real API server and orchestrator on SQLite with
// the scripted provider (no model servers: the bench measures the browser, not the providers),
// and a thread seeded with N real runs (messages and replies) through the orchestrator.
// apps/web does not depend on these packages; the bench reaches them by path, like the e2e suite.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "../../../packages/db/src/index.ts";
import {
  createScriptedProvider,
  type ScriptStep,
} from "../../../tooling/scripted-provider/src/index.ts";
import { createSilentLogger } from "../../api/src/logger.ts";
import { createOrchestrator } from "../../api/src/orchestrator/index.ts";
import { startServer } from "../../api/src/server.ts";

/** A reply like a coding agent's: a paragraph, a list and a code block (markdown + highlighting). */
export function seedReply(i: number): ScriptStep[] {
  return [
    {
      type: "text",
      text:
        `Run ${i}: updated \`parse_config\` so that **empty lines** are skipped.\n\n` +
        "- read the file\n- split on newlines\n\n" +
        "```ts\nexport function parse(text: string) {\n  return text.split('\\n').filter(Boolean);\n}\n```\n",
    },
  ];
}

export async function startUiBenchApi(options: {
  webOrigin: string;
  /** Writes a history into the data dir before the store opens it (seed-history.ts). */
  seed?: (dataDir: string) => Promise<void>;
}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "skein-ui-bench-"));
  await options.seed?.(dataDir);
  const workspace = mkdtempSync(path.join(tmpdir(), "skein-ui-bench-ws-"));
  writeFileSync(path.join(workspace, "README.md"), "bench\n");
  const store = openSqliteEventStore({ dataDir });
  const codex = createScriptedProvider({ provider: "codex" });
  const orchestrator = await createOrchestrator({
    store,
    adapters: { codex },
    dataDir,
    sessionIdleMs: 0,
    // Seeding 1,000 runs with a git checkpoint each takes minutes; the bench measures the page.
    captureCheckpoints: false,
  });
  const server = await startServer({
    orchestrator,
    store,
    host: "127.0.0.1",
    port: 0,
    webOrigins: [options.webOrigin],
    apiToken: null,
    dataDirs: [dataDir],
    log: createSilentLogger(),
  });
  type ThreadId = Awaited<ReturnType<typeof orchestrator.createThread>>["threadId"];
  const { projectId } = await orchestrator.createProject({
    name: "UI bench",
    workspaceRoot: workspace,
  });

  return {
    url: server.url,
    /** A thread with `runs` completed runs, each a message and a scripted reply. */
    async seedThread(title: string, runs: number): Promise<ThreadId> {
      const { threadId } = await orchestrator.createThread({ projectId, title });
      for (let i = 1; i <= runs; i += 1) {
        codex.enqueue(seedReply(i));
        const { runId } = await orchestrator.sendMessage({ threadId, text: `Request ${i}` });
        await orchestrator.waitForRun(runId);
      }
      return threadId;
    },
    /** Sends one message whose reply streams in `chunks` pieces, `delayMs` apart. */
    async streamReply(threadId: ThreadId, text: string, chunks: number, delayMs: number) {
      codex.enqueue([{ type: "text", text, chunks, delayMs }]);
      const { runId } = await orchestrator.sendMessage({ threadId, text: "Stream a long answer" });
      return () => orchestrator.waitForRun(runId);
    },
    async close() {
      await server.close();
      await orchestrator.shutdown();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}

export type UiBenchApi = Awaited<ReturnType<typeof startUiBenchApi>>;
export type UiBenchThreadId = Parameters<UiBenchApi["streamReply"]>[0];
