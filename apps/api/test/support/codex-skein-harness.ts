import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodexAdapter } from "@skein/adapters-codex";
import { CodexSession } from "@skein/adapters-codex/testing";
import {
  createRotatingLog,
  type EventStore,
  openEventStore,
  openSqliteEventStore,
  type RotatingLog,
} from "@skein/db";
import type {
  ProjectId,
  ProviderKind,
  Run,
  RunId,
  RuntimeMode,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import type {
  ProviderAdapter,
  ProviderCapabilityFlags,
  RawEventSink,
  RawFrame,
} from "@skein/domain/provider";
import {
  type CodexTestHome,
  createCodexTestHome,
  type FakeResponsesServer,
  type FaultProxy,
  type ResponsesRequestBody,
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
import { usePerTest } from "./cleanups.ts";
import { eventually } from "./orchestrator-harness.ts";

export { eventually };

export type CodexSkeinOptions = {
  /** Raw log bounds; the default is roomy enough that no frame of a test rotates away. */
  rawLog?: { maxFileBytes: number; maxFiles: number };
  /** Sees every raw frame as it is logged (benchmarks time protocol traffic with it). */
  onFrame?: (frame: RawFrame) => void;
  /** Capabilities Codex reports differently, to force a fallback path (e.g. `{ steer: false }`). */
  capabilities?: Partial<ProviderCapabilityFlags>;
  /** Codex `[features]` flags for its CODEX_HOME (e.g. `{ multi_agent_v2: true }`). */
  features?: Record<string, boolean>;
  /** The model Codex asks for (its catalog decides some tools; default gpt-5.5). */
  model?: string;
  /** Extra CODEX_HOME config (e.g. a `[tools]` table turning on `update_plan`). */
  extraToml?: string;
  /** B2: new attempts after provider failures mid-turn (the orchestrator's default otherwise). */
  attempts?: OrchestratorOptions["attempts"];
  /** T9: how long a delegated child may run (the orchestrator's default otherwise). */
  delegateTimeoutMs?: number;
  /** Issue 25: how long a provider may take to write a handoff (the default otherwise). */
  summaryTimeoutMs?: number;
  /** A PostgreSQL URL (a scratch schema) for the store instead of SQLite in the data dir. */
  postgresUrl?: string;
  /** Puts a fault proxy between Codex and the fake server (model requests only), as `faults`. */
  faultProxy?: boolean;
  /**
   * Codex talks to this model server instead of `server` (which then sees no requests): benches
   * that time Skein against the runtime run the fake model in a process of its own.
   */
  modelUrl?: string;
  /** A fault between a bring-back's files and its append (every incarnation after restarts). */
  afterBringBackFiles?: OrchestratorOptions["afterBringBackFiles"];
  /** B21: when idle runtimes are recycled (the default otherwise). */
  runtimeLimits?: OrchestratorOptions["runtimeLimits"];
  /** Issue 32: the usage-limit waits' clock and bounds (kept across restarts). */
  usageLimits?: OrchestratorOptions["usageLimits"];
};

export type CodexSkeinHarness = {
  store: EventStore;
  /** The fake Responses API; `requests` is every model request Codex sent, in order. */
  server: FakeResponsesServer;
  /** The fault proxy in front of `server` (with `faultProxy` only): inject model faults. */
  faults: FaultProxy | null;
  readonly orchestrator: Orchestrator;
  /** Second provider for cross-provider work (delegation): in-memory and instant. */
  claude: ScriptedProvider;
  /** Every Codex app-server session the orchestrator opened, oldest first. */
  codexSessions: CodexSession[];
  /** Every raw frame the adapters logged (a tee of the rotating log), oldest first. */
  frames: RawFrame[];
  projectId: ProjectId;
  workspace: string;
  /** The CODEX_HOME pointing at the fake server (for driving a second app-server directly). */
  codexHome: string;
  rawLogDir: string;
  /** The rotating raw log itself (to read frames back). */
  rawLog: RotatingLog;
  /** The orchestrator's data dir (attachments, checkpoints, raw logs live under it). */
  dataDir: string;
  thread(threadId: ThreadId): Promise<ThreadState>;
  createThread(options?: { runtimeMode?: RuntimeMode }): Promise<ThreadId>;
  send(threadId: ThreadId, text: string, provider?: ProviderKind): Promise<RunId>;
  /** Sends a message and waits for its run to settle. */
  run(
    threadId: ThreadId,
    text: string,
    provider?: ProviderKind,
  ): Promise<{ runId: RunId; run: Run }>;
  /** Resolves once the run is in one of `statuses` (polls the repository). */
  waitForRunStatus(
    threadId: ThreadId,
    runId: RunId,
    statuses: string[],
    timeoutMs?: number,
  ): Promise<Run>;
  /** Outgoing JSON-RPC requests of one method, as Codex received them. */
  sent(method: string): RawFrame[];
  /** The n-th model request (0-based; negative counts from the end). */
  request(index: number): ResponsesRequestBody;
  /** Skein restarts: the orchestrator shuts down and a new one recovers from the same store. */
  restart(): Promise<Orchestrator>;
  rawLogFiles(): Array<{ name: string; bytes: number }>;
  close(): Promise<void>;
};

/**
 * Skein end to end on Codex: the real orchestrator on a real SQLite store, the real `codex
 * app-server` binary configured (through its CODEX_HOME) to talk to the fake Responses server,
 * and a rotating raw log. Nothing in the Codex path is mocked; the adapter is only wrapped to
 * keep its sessions (for their pids) and the raw log only teed (to see what was sent).
 */
export async function createCodexSkeinHarness(
  options: CodexSkeinOptions = {},
): Promise<CodexSkeinHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), "skein-codex-skein-"));
  const workspace = mkdtempSync(join(tmpdir(), "skein-codex-ws-"));
  const rawLogDir = join(dataDir, "raw");
  const store = options.postgresUrl
    ? await openEventStore({ url: options.postgresUrl })
    : openSqliteEventStore({ dataDir });
  const server = await startFakeResponsesServer();
  const faults = options.faultProxy
    ? await startFaultProxy({
        upstream: server.url,
        applies: (r) => r.method === "POST" && r.path.endsWith("/responses"),
      })
    : null;
  let home: CodexTestHome;
  try {
    home = await createCodexTestHome({
      baseUrl: options.modelUrl ?? faults?.url ?? server.url,
      model: options.model ?? "gpt-5.5",
      ...(options.features ? { features: options.features } : {}),
      ...(options.extraToml ? { extraToml: options.extraToml } : {}),
    });
  } catch (error) {
    await faults?.close();
    await server.close();
    throw error;
  }
  const codexSessions: CodexSession[] = [];
  const real = createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } });
  const observed: ProviderAdapter = {
    ...real,
    async openSession(input) {
      const session = await real.openSession(input);
      if (session instanceof CodexSession) codexSessions.push(session);
      return session;
    },
  };
  const codex = options.capabilities ? withCapabilities(observed, options.capabilities) : observed;
  const claude = createScriptedProvider({ provider: "claude" });
  const frames: RawFrame[] = [];
  const bounds = options.rawLog ?? { maxFileBytes: 8 * 1024 * 1024, maxFiles: 3 };
  const rotating = createRotatingLog({ dir: rawLogDir, ...bounds });
  const rawLog: RawEventSink = {
    record(frame) {
      frames.push(frame);
      options.onFrame?.(frame);
      return rotating.record(frame);
    },
  };
  const make = () =>
    createOrchestrator({
      store,
      adapters: { codex, claude },
      dataDir,
      rawLog,
      sessionIdleMs: 0,
      ...(options.attempts ? { attempts: options.attempts } : {}),
      ...(options.delegateTimeoutMs ? { delegateTimeoutMs: options.delegateTimeoutMs } : {}),
      ...(options.summaryTimeoutMs ? { summaryTimeoutMs: options.summaryTimeoutMs } : {}),
      ...(options.afterBringBackFiles ? { afterBringBackFiles: options.afterBringBackFiles } : {}),
      ...(options.runtimeLimits ? { runtimeLimits: options.runtimeLimits } : {}),
      ...(options.usageLimits ? { usageLimits: options.usageLimits } : {}),
    });
  let orchestrator = await make();
  const { projectId } = await orchestrator.createProject({
    name: "codex",
    workspaceRoot: workspace,
  });

  const thread = (threadId: ThreadId) => orchestrator.repository.thread(threadId);
  const waitForRunStatus = (
    threadId: ThreadId,
    runId: RunId,
    statuses: string[],
    timeoutMs = 20_000,
  ) =>
    eventually(async () => {
      const run = (await thread(threadId)).runs.get(runId);
      if (!run || !statuses.includes(run.status)) {
        throw new Error(`run ${runId} is ${run?.status ?? "missing"}, not ${statuses.join("|")}`);
      }
      return run;
    }, timeoutMs);

  const harness: CodexSkeinHarness = {
    store,
    server,
    faults,
    get orchestrator() {
      return orchestrator;
    },
    claude,
    codexSessions,
    frames,
    projectId,
    workspace,
    codexHome: home.dir,
    rawLogDir,
    rawLog: rotating,
    dataDir,
    thread,
    async createThread(opts = {}) {
      const { threadId } = await orchestrator.createThread({
        projectId,
        title: "Main",
        provider: "codex",
        ...(opts.runtimeMode ? { runtimeMode: opts.runtimeMode } : {}),
      });
      return threadId;
    },
    async send(threadId, text, provider) {
      const { runId } = await orchestrator.sendMessage({
        threadId,
        text,
        ...(provider ? { provider } : {}),
      });
      return runId;
    },
    async run(threadId, text, provider) {
      const runId = await harness.send(threadId, text, provider);
      await orchestrator.waitForRun(runId);
      const run = (await thread(threadId)).runs.get(runId);
      if (!run) throw new Error(`run ${runId} vanished`);
      return { runId, run };
    },
    waitForRunStatus,
    sent: (method) => frames.filter((f) => f.direction === "outgoing" && f.method === method),
    request(index) {
      const body = index < 0 ? server.requests.at(index) : server.requests[index];
      if (!body) throw new Error(`no model request #${index} (${server.requests.length} recorded)`);
      return body;
    },
    async restart() {
      await orchestrator.shutdown();
      orchestrator = await make();
      await orchestrator.recover();
      // As a restarted server: its watches have seen every thread before the test looks.
      await orchestrator.watching();
      return orchestrator;
    },
    rawLogFiles: () =>
      readdirSync(rawLogDir)
        .sort()
        .map((name) => ({ name, bytes: statSync(join(rawLogDir, name)).size })),
    async close() {
      await orchestrator.shutdown().catch(() => undefined);
      rotating.close();
      await store.close();
      await faults?.close();
      await server.close();
      await home.remove();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
  return harness;
}

/**
 * For a test file: a Codex harness per test, closed after it.
 */
export function useCodexSkeinHarness() {
  return usePerTest(createCodexSkeinHarness);
}
