import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { ClaudeProviderSession } from "@skein/adapters-claude/testing";
import { createCodexAdapter } from "@skein/adapters-codex";
import {
  createRotatingLog,
  openSqliteEventStore,
  type RotatingLog,
  type SqliteEventStore,
} from "@skein/db";
import type {
  ProjectId,
  ProviderKind,
  RunId,
  RuntimeMode,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import type {
  ProviderAdapter,
  ProviderCapabilityFlags,
  ProviderSessionHandle,
} from "@skein/domain/provider";
import {
  type AnthropicRecordedRequest,
  anthropicAgentOf,
  type CodexTestHome,
  classifyAnthropicRequest,
  createCodexTestHome,
  type FakeMessagesServer,
  type FakeResponsesServer,
  type FaultProxy,
  startFakeMessagesServer,
  startFakeResponsesServer,
  startFaultProxy,
} from "@skein/fake-models";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import {
  createOrchestrator,
  type Orchestrator,
  type OrchestratorOptions,
} from "../../src/orchestrator/index.ts";
import { withCapabilities } from "./capability-override.ts";

/**
 * `claude` child environment that leaves every retry to Skein: Claude Code otherwise retries a
 * failed request itself and answers a cut stream with a non-streaming request of its own.
 */
export const CLAUDE_NO_CLI_RETRY = {
  CLAUDE_CODE_MAX_RETRIES: "0",
  CLAUDE_CODE_DISABLE_NONSTREAMING_FALLBACK: "1",
};

/** Which Codex backs the `codex` provider: the real app-server on a fake model, or a script. */
export type CodexBackend = "real" | "scripted" | "none";

export type ClaudeSkeinHarness = {
  store: SqliteEventStore;
  /** The orchestrator's data dir (attachments, checkpoints and the raw log live under it). */
  dataDir: string;
  /** The rotating raw provider log (E18) the adapters write. */
  rawLog: RotatingLog;
  orchestrator: Orchestrator;
  projectId: ProjectId;
  /** The project's workspace root (every thread's cwd). */
  workspaceRoot: string;
  /** Claude Code's config dir (CLAUDE_CONFIG_DIR): its session transcripts live under it. */
  claudeConfigDir: string;
  /** The fake Anthropic Messages API the real `claude` binary talks to. */
  anthropic: FakeMessagesServer;
  /**
   * The fault proxy in front of `anthropic` (with `faultProxy` only); faults hit the main
   * conversation's requests only, never Claude Code's side requests.
   */
  faults: FaultProxy | null;
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
    options?: Omit<Parameters<Orchestrator["sendMessage"]>[0], "threadId" | "text">,
  ): Promise<{ runId: RunId; state: ThreadState }>;
  thread(threadId: ThreadId): Promise<ThreadState>;
  /** Main-loop conversation requests Claude sent (subagent traffic left out). */
  claudeRequests(): AnthropicRecordedRequest[];
  /** Skein restarts: the orchestrator shuts down and a new one recovers from the same store. */
  restart(): Promise<Orchestrator>;
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
    ...(adapter.attachmentTypes ? { attachmentTypes: adapter.attachmentTypes } : {}),
    ...(adapter.threadEnv ? { threadEnv: true } : {}),
    status: () => adapter.status(),
    ...(adapter.listModels ? { listModels: adapter.listModels.bind(adapter) } : {}),
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
  options: {
    codex?: CodexBackend;
    /** Capabilities Claude reports differently, to force a fallback (e.g. `{ steer: false }`). */
    claudeCapabilities?: Partial<ProviderCapabilityFlags>;
    attempts?: OrchestratorOptions["attempts"];
    /** A `claude` executable path instead of the bundled one (e.g. one that does not exist). */
    claudeExecutablePath?: string;
    /** Puts a fault proxy between `claude` and the fake Messages API, as `faults`. */
    faultProxy?: boolean;
    /** Extra environment for the `claude` child (e.g. `CLAUDE_CODE_MAX_RETRIES`). */
    claudeEnv?: Record<string, string>;
    /** Issue 32: the usage-limit waits' clock and bounds (kept across `restart`). */
    usageLimits?: OrchestratorOptions["usageLimits"];
    /**
     * `claude` talks to this Messages API instead of `anthropic` (which then sees no requests):
     * benches that time Skein against the runtime run the fake model in a process of its own.
     */
    modelUrl?: string;
  } = {},
): Promise<ClaudeSkeinHarness> {
  const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));
  const dataDir = temp("skein-claude-data-");
  const workspaceRoot = temp("skein-claude-work-");
  const claudeConfigDir = temp("skein-claude-config-");
  const store = openSqliteEventStore({ dataDir });
  const rawLog = createRotatingLog({
    dir: join(dataDir, "raw"),
    maxFileBytes: 8 * 1024 * 1024,
    maxFiles: 3,
  });
  const anthropic = await startFakeMessagesServer();
  const faults = options.faultProxy
    ? await startFaultProxy({
        upstream: anthropic.url,
        applies: (r) => {
          const body = parseJson(r.body);
          return (
            classifyAnthropicRequest(r.method, r.path, body) === "conversation" &&
            anthropicAgentOf(body) === "main"
          );
        },
      })
    : null;
  const claudeSessions: ClaudeProviderSession[] = [];
  const realClaude = createClaudeAdapter({
    configDir: claudeConfigDir,
    baseUrl: options.modelUrl ?? faults?.url ?? anthropic.url,
    apiKey: "test",
    ...(options.claudeEnv ? { env: options.claudeEnv } : {}),
    ...(options.claudeExecutablePath ? { executablePath: options.claudeExecutablePath } : {}),
  });
  const claude = observed(
    options.claudeCapabilities
      ? withCapabilities(realClaude, options.claudeCapabilities)
      : realClaude,
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

  const make = () =>
    createOrchestrator({
      store,
      adapters,
      dataDir,
      rawLog,
      sessionIdleMs: 0,
      ...(options.attempts ? { attempts: options.attempts } : {}),
      ...(options.usageLimits ? { usageLimits: options.usageLimits } : {}),
    });
  let orchestrator = await make();
  const { projectId } = await orchestrator.createProject({ name: "claude e2e", workspaceRoot });
  const thread = (threadId: ThreadId) => orchestrator.repository.thread(threadId);

  return {
    store,
    dataDir,
    rawLog,
    get orchestrator() {
      return orchestrator;
    },
    projectId,
    workspaceRoot,
    claudeConfigDir,
    anthropic,
    faults,
    openai,
    scriptedCodex,
    claudeSessions,
    claudeSpawns: () => claudeSessions.reduce((n, s) => n + s.spawnCount, 0),
    async createThread({ provider = "claude", runtimeMode = "approval-required" } = {}) {
      const created = await orchestrator.createThread({
        projectId,
        title: "Main",
        provider,
        runtimeMode,
      });
      return created.threadId;
    },
    async send(threadId, text, sendOptions = {}) {
      const { runId } = await orchestrator.sendMessage({ threadId, text, ...sendOptions });
      await orchestrator.waitForRun(runId);
      return { runId, state: await thread(threadId) };
    },
    thread,
    claudeRequests: () => anthropic.conversationRequests().filter((r) => r.agent === "main"),
    async restart() {
      await orchestrator.shutdown();
      orchestrator = await make();
      await orchestrator.recover();
      // As a restarted server: its watches have seen every thread before the test looks.
      await orchestrator.watching();
      return orchestrator;
    },
    async close() {
      await orchestrator.shutdown();
      rawLog.close();
      await store.close();
      await faults?.close();
      await anthropic.close();
      await openai?.close();
      await codexHome?.remove();
      for (const dir of [dataDir, workspaceRoot, claudeConfigDir]) {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

import { usePerTest } from "./cleanups.ts";

export { eventually } from "./orchestrator-harness.ts";

/** For a test file: a Claude harness per test, closed after it. */
export function useClaudeSkeinHarness() {
  return usePerTest(createClaudeSkeinHarness);
}
