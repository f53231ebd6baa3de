import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClaudeProviderSession, createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import type {
  ProjectId,
  ProviderKind,
  RunId,
  RuntimeMode,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import type { ProviderAdapter, ProviderSessionHandle } from "@skein/domain/provider";
import {
  type AnthropicRecordedRequest,
  type CodexTestHome,
  createCodexTestHome,
  type FakeMessagesServer,
  type FakeResponsesServer,
  startFakeMessagesServer,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { createOrchestrator, type Orchestrator } from "../../src/orchestrator/index.ts";

/** Which Codex backs the `codex` provider: the real app-server on a fake model, or a script. */
export type CodexBackend = "real" | "scripted" | "none";

export type ClaudeSkeinHarness = {
  store: SqliteEventStore;
  orchestrator: Orchestrator;
  projectId: ProjectId;
  /** The project's workspace root (every thread's cwd). */
  workspaceRoot: string;
  /** The fake Anthropic Messages API the real `claude` binary talks to. */
  anthropic: FakeMessagesServer;
  /** The fake Responses API behind the real Codex (codex: "real" only). */
  openai: FakeResponsesServer | null;
  /** The scripted Codex (codex: "scripted" only). */
  scriptedCodex: ScriptedProvider | null;
  /** Claude provider sessions the orchestrator opened, in order. */
  claudeSessions: ClaudeProviderSession[];
  /** `claude` processes spawned so far, across every Claude provider session. */
  claudeSpawns(): number;
  createThread(options?: { provider?: ProviderKind; runtimeMode?: RuntimeMode }): Promise<ThreadId>;
  /** Sends a message and waits for its run to settle. */
  send(
    threadId: ThreadId,
    text: string,
    options?: { provider?: ProviderKind },
  ): Promise<{ runId: RunId; state: ThreadState }>;
  thread(threadId: ThreadId): Promise<ThreadState>;
  /** Main-loop conversation requests Claude sent (subagent traffic left out). */
  claudeRequests(): AnthropicRecordedRequest[];
  close(): Promise<void>;
};

/** Records every session an adapter opens, so tests can look at the live runtimes. */
function observed(
  adapter: ProviderAdapter,
  onSession: (handle: ProviderSessionHandle) => void,
): ProviderAdapter {
  return {
    version: adapter.version,
    provider: adapter.provider,
    capabilities: adapter.capabilities,
    status: () => adapter.status(),
    async openSession(input) {
      const handle = await adapter.openSession(input);
      onSession(handle);
      return handle;
    },
  };
}

/**
 * Skein end to end for Claude: the real orchestrator on a real SQLite store in a temp data dir,
 * the real Claude Agent SDK and bundled `claude` binary (temp CLAUDE_CONFIG_DIR, never
 * `~/.claude`) on a fake Messages API, and optionally Codex (real app-server on a fake Responses
 * API, or scripted) for cross-provider flows.
 */
export async function createClaudeSkeinHarness(
  options: { codex?: CodexBackend } = {},
): Promise<ClaudeSkeinHarness> {
  const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
  const dataDir = temp("skein-claude-data-");
  const workspaceRoot = temp("skein-claude-work-");
  const claudeConfigDir = temp("skein-claude-config-");
  const store = openSqliteEventStore({ dataDir });
  const anthropic = await startFakeMessagesServer();
  const claudeSessions: ClaudeProviderSession[] = [];
  const claude = observed(
    createClaudeAdapter({ configDir: claudeConfigDir, baseUrl: anthropic.url, apiKey: "test" }),
    (handle) => {
      if (handle instanceof ClaudeProviderSession) claudeSessions.push(handle);
    },
  );

  const adapters: Partial<Record<ProviderKind, ProviderAdapter>> = { claude };
  let openai: FakeResponsesServer | null = null;
  let codexHome: CodexTestHome | null = null;
  let scriptedCodex: ScriptedProvider | null = null;
  if (options.codex === "real") {
    openai = await startFakeResponsesServer();
    codexHome = await createCodexTestHome({ baseUrl: openai.url, model: "gpt-5.5" });
    adapters.codex = createCodexAdapter({ codexHome: codexHome.dir, env: { RUST_LOG: "error" } });
  } else if (options.codex === "scripted") {
    scriptedCodex = createScriptedProvider({ provider: "codex" });
    adapters.codex = scriptedCodex;
  }

  const orchestrator = await createOrchestrator({ store, adapters, dataDir, sessionIdleMs: 0 });
  const { projectId } = await orchestrator.createProject({ name: "claude e2e", workspaceRoot });
  const thread = (threadId: ThreadId) => orchestrator.repository.thread(threadId);

  return {
    store,
    orchestrator,
    projectId,
    workspaceRoot,
    anthropic,
    openai,
    scriptedCodex,
    claudeSessions,
    claudeSpawns: () => claudeSessions.reduce((n, s) => n + s.spawnCount, 0),
    async createThread({ provider = "claude", runtimeMode = "approval-required" } = {}) {
      const created = await orchestrator.createThread({ projectId, provider, runtimeMode });
      return created.threadId;
    },
    async send(threadId, text, sendOptions = {}) {
      const { runId } = await orchestrator.sendMessage({ threadId, text, ...sendOptions });
      await orchestrator.waitForRun(runId);
      return { runId, state: await thread(threadId) };
    },
    thread,
    claudeRequests: () => anthropic.conversationRequests().filter((r) => r.agent === "main"),
    async close() {
      await orchestrator.shutdown();
      await store.close();
      await anthropic.close();
      await openai?.close();
      await codexHome?.remove();
      for (const dir of [dataDir, workspaceRoot, claudeConfigDir]) {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export { eventually } from "./orchestrator-harness.ts";
