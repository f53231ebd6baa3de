import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usePerTest } from "./cleanups.ts";
import { type NewEvent, openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import type {
  ProjectId,
  ProjectSettingsPatch,
  ProviderKind,
  ThreadId,
  ThreadState,
} from "@skein/domain";
import type { ProviderCapabilityFlags } from "@skein/domain/provider";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import {
  createOrchestrator,
  type Orchestrator,
  type OrchestratorOptions,
} from "../../src/orchestrator/index.ts";

export type Harness = {
  store: SqliteEventStore;
  orchestrator: Orchestrator;
  codex: ScriptedProvider;
  claude: ScriptedProvider;
  dataDir: string;
  workspaceRoot: string;
  projectId: ProjectId;
  thread(threadId: ThreadId): Promise<ThreadState>;
  /** A new orchestrator on the same store, as after a process restart. */
  restart(): Promise<Orchestrator>;
  close(): Promise<void>;
};

export async function createHarness(
  options: {
    capabilities?: Partial<Record<ProviderKind, Partial<ProviderCapabilityFlags>>>;
    /** The project's workspace; defaults to a fresh temp folder. */
    workspaceRoot?: string;
    /** Idle provider runtimes are reaped after this long (0: never). */
    sessionIdleMs?: number;
    /** B2: new attempts after provider failures. */
    attempts?: OrchestratorOptions["attempts"];
    /** B17: where GitHub is (a fake) and its token. */
    github?: OrchestratorOptions["github"];
    /** Issue 26: the project's settings (thread workspace, setup script, files, ports). */
    projectSettings?: ProjectSettingsPatch;
    setupTimeoutMs?: number;
  } = {},
): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), "skein-orch-"));
  const store = openSqliteEventStore({ dataDir });
  const codex = createScriptedProvider({
    provider: "codex",
    capabilities: options.capabilities?.codex,
  });
  const claude = createScriptedProvider({
    provider: "claude",
    capabilities: options.capabilities?.claude,
  });
  const make = () =>
    createOrchestrator({
      store,
      adapters: { codex, claude },
      dataDir,
      sessionIdleMs: options.sessionIdleMs ?? 0,
      ...(options.attempts ? { attempts: options.attempts } : {}),
      ...(options.github ? { github: options.github } : {}),
      ...(options.setupTimeoutMs ? { setupTimeoutMs: options.setupTimeoutMs } : {}),
    });
  let orchestrator = await make();
  // Keep the workspace apart from the data dir: checkpoints must never capture Skein's own files.
  const workspaceRoot = options.workspaceRoot ?? mkdtempSync(join(tmpdir(), "skein-ws-"));
  const { projectId } = await orchestrator.createProject({
    name: "demo",
    workspaceRoot,
    ...(options.projectSettings ? { settings: options.projectSettings } : {}),
  });
  const harness: Harness = {
    store,
    get orchestrator() {
      return orchestrator;
    },
    codex,
    claude,
    dataDir,
    workspaceRoot,
    projectId,
    thread: (threadId) => orchestrator.repository.thread(threadId),
    async restart() {
      orchestrator = await make();
      return orchestrator;
    },
    async close() {
      await orchestrator.shutdown();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspaceRoot, { recursive: true, force: true });
    },
  };
  return harness;
}

/** Polls until `check` passes (state changes arrive asynchronously from the provider path). */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      lastError = error;
      if (Date.now() > deadline) throw lastError;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Sends a message and waits for its run to settle. */
export async function runMessage(
  h: Harness,
  threadId: ThreadId,
  text: string,
  options: { provider?: ProviderKind; bringBackFrom?: ThreadId } = {},
) {
  const { runId } = await h.orchestrator.sendMessage({ threadId, text, ...options });
  await h.orchestrator.waitForRun(runId);
  const state = await h.thread(threadId);
  return { runId, run: state.runs.get(runId)!, state };
}

/** For a test file: a scripted-provider harness per test, closed after it. */
export function useHarness() {
  return usePerTest(createHarness);
}

/** The store fails the next append holding an event of `type`, as a crash before it would. */
export function failNextAppendOf(h: Harness, type: string): void {
  const store = h.store;
  const append = store.append.bind(store);
  let armed = true;
  store.append = async (streamId, expected, events: readonly NewEvent[], options) => {
    if (armed && events.some((event) => event.type === type)) {
      armed = false;
      throw new Error("simulated crash: the database went away");
    }
    return append(streamId, expected, events, options);
  };
}
