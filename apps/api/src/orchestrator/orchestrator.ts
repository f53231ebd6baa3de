import { type EventStore, LeaseKeeper } from "@skein/db";
import {
  type ContextTransferId,
  type IdSource,
  NotFoundError,
  type ProviderKind,
  type RunId,
  type ThreadId,
} from "@skein/domain";
import type { ProviderAdapter, RawEventSink } from "@skein/domain/provider";
import { createIdGenerator } from "../runtime/id-generator.ts";
import { AggregateRepository } from "./aggregate-repository.ts";
import { CheckpointService } from "./checkpoint-service.ts";
import { createDelegateHandler, DELEGATE_TOOL } from "./delegate-tool.ts";
import { createForkWorkspace, planForkWorkspace } from "./fork-workspace.ts";
import { editHandoff, regenerateHandoff } from "./handoff-commands.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { recoverAfterRestart, startLeaseSweep } from "./recovery.ts";
import { rollbackToCheckpoint } from "./rollback.ts";
import { RunExecutor } from "./run-executor.ts";
import { RuntimeForwarder } from "./runtime-forwarding.ts";
import type { OrchestratorCommands } from "./service-types.ts";
import { SessionManager } from "./session-manager.ts";

const TERMINAL_RUN_STATUSES = new Set([
  "completed",
  "interrupted",
  "failed",
  "cancelled",
  "rolled_back",
]);

export type OrchestratorOptions = {
  store: EventStore;
  adapters: Partial<Record<ProviderKind, ProviderAdapter>>;
  dataDir: string;
  ids?: IdSource;
  now?: () => Date;
  log?: Logger;
  rawLog?: RawEventSink;
  /** Idle provider runtimes are closed after this long (0 disables reaping). */
  sessionIdleMs?: number;
  /** Capture a workspace checkpoint at the end of every root run (default true). */
  captureCheckpoints?: boolean;
  /**
   * Names this instance in runtime leases; instances sharing a database need distinct ids, and a
   * restarted instance should keep its id (its old leases are then recovered at once).
   */
  instanceId?: string;
  /** How long a runtime lease outlives its holder's last renewal; default 30 s. */
  leaseTtlMs?: number;
  /** The API token instances share: runtime commands forwarded to another instance present it. */
  apiToken?: string | null;
};

export type Orchestrator = OrchestratorCommands & {
  /** R2: ends runs left in flight by a previous process and re-dispatches queued runs. */
  recover(): Promise<void>;
  /** Resolves when the run has settled in this process (tests, the delegate tool). */
  waitForRun(runId: string): Promise<void>;
  readonly repository: AggregateRepository;
  readonly instanceId: string;
  /** Tests: stop renewing leases without releasing them, as a killed instance would. */
  stopLeaseRenewal(): void;
  /** Tests: renew again, as a hung instance coming back would (and learn which leases it lost). */
  resumeLeaseRenewal(): void;
  /** Records where other instances reach this one's API (known once the server listens). */
  advertise(url: string): Promise<void>;
};

/** Wires the repository, session manager and run executor into the command side of Skein. */
export async function createOrchestrator(options: OrchestratorOptions): Promise<Orchestrator> {
  const ids = options.ids ?? createIdGenerator();
  const now = options.now ?? (() => new Date());
  const log = options.log ?? silentLogger;
  const repo = new AggregateRepository(options.store, now, ids);
  const sessions = new SessionManager(
    options.adapters,
    repo,
    () => ids.next("providerSession"),
    log,
    options.rawLog,
    options.sessionIdleMs ?? 10 * 60_000,
    options.instanceId ?? "local",
  );
  const checkpoints = new CheckpointService(
    repo,
    ids,
    options.dataDir,
    log,
    options.captureCheckpoints ?? true,
  );
  const toolsFor = (threadId: ThreadId, runId: RunId) => {
    const state = repo.peekThread(threadId);
    const provider = state?.runs.get(runId)?.provider;
    if (!provider || !sessions.adapter(provider)?.capabilities.appOwnedTools) return null;
    return {
      tools: [DELEGATE_TOOL],
      handler: createDelegateHandler(repo, executor, ids, threadId, runId),
    };
  };
  const leases = new LeaseKeeper({
    leases: options.store.runtimeLeases,
    owner: options.instanceId ?? "local",
    ttlMs: options.leaseTtlMs ?? 30_000,
    onLost: (threadId) => {
      log.error({ threadId }, "runtime lease lost to another instance; stopping its run here");
      executor.leaseLost(threadId as ThreadId);
    },
    onError: (error) => log.warn({ err: error }, "runtime leases could not be renewed"),
  });
  await leases.start();
  const executor: RunExecutor = new RunExecutor(
    repo,
    sessions,
    ids,
    log,
    toolsFor,
    checkpoints,
    leases,
  );
  let stopSweep: (() => void) | null = null;
  const runtime = new RuntimeForwarder(leases, repo, options.apiToken ?? null, log);

  const requireThread = async (threadId: ThreadId) => {
    const state = await repo.thread(threadId);
    if (!state.thread) throw new NotFoundError("thread", threadId);
    return state;
  };

  const handoffDeps = {
    repo,
    ids,
    capabilities: (provider: ProviderKind) => sessions.adapter(provider)?.capabilities ?? null,
  };

  const threadOfTransfer = async (transferId: ContextTransferId): Promise<ThreadId> => {
    const { data } = await options.store.snapshot((q) => q.get("transfers", transferId));
    if (!data?.threadId) throw new NotFoundError("transfer", transferId);
    return data.threadId as ThreadId;
  };

  return {
    repository: repo,
    instanceId: leases.owner,
    stopLeaseRenewal: () => {
      leases.stopRenewal();
      stopSweep?.();
    },
    resumeLeaseRenewal: () => leases.resumeRenewal(),
    advertise: (url) => leases.setAddress(url),
    async createProject(input) {
      const projectId = ids.next("project");
      const result = await repo.execute(
        {
          type: "CreateProject",
          data: { projectId, title: input.name, workspaceRoot: input.workspaceRoot },
        },
        { commandId: input.commandId, receipt: { projectId } },
      );
      return { ...(result.receipt as { projectId: typeof projectId }), sequence: result.sequence };
    },
    async createThread(input) {
      const threadId = ids.next("thread");
      const result = await repo.execute(
        {
          type: "CreateThread",
          data: {
            threadId,
            projectId: input.projectId,
            title: input.title ?? "New thread",
            defaultProvider: input.provider ?? "codex",
            modelSelection: { model: input.model ?? null },
            ...(input.runtimeMode ? { runtimeMode: input.runtimeMode } : {}),
          },
        },
        { commandId: input.commandId, receipt: { threadId } },
      );
      return { ...(result.receipt as { threadId: ThreadId }), sequence: result.sequence };
    },
    async sendMessage(input) {
      const state = await requireThread(input.threadId);
      const thread = state.thread!;
      const provider = input.provider ?? thread.defaultProvider;
      const model =
        input.model ?? (provider === thread.defaultProvider ? thread.modelSelection.model : null);
      if (input.bringBackFrom)
        await checkpoints.settleLatestRun(await repo.thread(input.bringBackFrom));
      const runId = ids.next("run");
      const result = await repo.execute(
        {
          type: "QueueRun",
          data: {
            threadId: input.threadId,
            runId,
            messageId: ids.next("message"),
            text: input.text,
            provider,
            model,
            ...(input.bringBackFrom ? { bringBackFrom: input.bringBackFrom } : {}),
          },
        },
        { commandId: input.commandId, receipt: { runId } },
      );
      executor.kick(input.threadId);
      return { ...(result.receipt as { runId: typeof runId }), sequence: result.sequence };
    },
    async forkThread(input) {
      const spec = input.sourcePoint ?? { type: "latest_stable" as const };
      if (spec.type === "latest_stable") {
        await checkpoints.settleLatestRun(await requireThread(input.threadId));
      }
      const source = await requireThread(input.threadId);
      const workspace =
        input.commandId && (await options.store.findReceipt(input.commandId))
          ? null
          : await planForkWorkspace(repo, checkpoints, source, spec, input.isolatedWorkspace);
      const threadId = ids.next("thread");
      const result = await repo.execute(
        {
          type: "ForkThread",
          data: {
            threadId,
            sourceThreadId: input.threadId,
            sourcePoint: spec,
            ...(input.title ? { title: input.title } : {}),
            createdBy: "user",
            relationship: "fork",
          },
        },
        { commandId: input.commandId, receipt: { threadId } },
      );
      const receipt = result.receipt as { threadId: ThreadId };
      if (workspace && !result.duplicate) {
        await createForkWorkspace(repo, checkpoints, options.dataDir, receipt.threadId, workspace);
      }
      const fork = await repo.thread(receipt.threadId);
      const transfer = [...fork.transfers.values()].find((t) => t.type === "fork");
      if (!transfer) throw new Error(`fork ${receipt.threadId} has no fork transfer`);
      return { threadId: receipt.threadId, transferId: transfer.id, sequence: result.sequence };
    },
    async steer({ forwarded, ...input }) {
      await requireThread(input.threadId);
      return runtime.run(
        input.threadId,
        forwarded === true,
        async () => ({ sequence: await executor.steer(input.threadId, input.text) }),
        (client, signal) => client.thread.steer.mutate(input, { signal }),
      );
    },
    async interrupt({ forwarded, ...input }) {
      await requireThread(input.threadId);
      return runtime.run(
        input.threadId,
        forwarded === true,
        async () => ({ sequence: await executor.interrupt(input.threadId) }),
        (client, signal) => client.thread.interrupt.mutate(input, { signal }),
      );
    },
    async rollback(input) {
      const deps = { store: options.store, repo, sessions, checkpoints, ids, clock: now, log };
      return rollbackToCheckpoint(deps, input.threadId, input.checkpointId, input.commandId);
    },
    async archive(input) {
      const result = await repo.execute(
        { type: "ArchiveThread", data: { threadId: input.threadId } },
        { commandId: input.commandId },
      );
      return { sequence: result.sequence };
    },
    async respondToRequest({ forwarded, ...input }) {
      const { data } = await options.store.snapshot((q) => q.get("requests", input.requestId));
      if (!data?.threadId) throw new NotFoundError("request", input.requestId);
      const threadId = data.threadId as ThreadId;
      return runtime.run(
        threadId,
        forwarded === true,
        async () => ({
          sequence: await executor.respond(input.requestId, threadId, {
            decision: input.decision,
            ...(input.answers ? { answers: input.answers } : {}),
          }),
        }),
        (client, signal) => client.request.respond.mutate(input, { signal }),
      );
    },
    async regenerateHandoff(input) {
      const threadId = await threadOfTransfer(input.transferId);
      return regenerateHandoff(handoffDeps, { ...input, threadId }, input.provider ?? null);
    },
    async editHandoff(input) {
      const threadId = await threadOfTransfer(input.transferId);
      return editHandoff(handoffDeps, { ...input, threadId }, input.text);
    },
    async providerStatus() {
      const out = [];
      for (const provider of ["codex", "claude"] as const) {
        const adapter = sessions.adapter(provider);
        if (!adapter) {
          out.push({
            provider,
            found: false,
            version: null,
            ready: false,
            lastError: "not configured",
          });
          continue;
        }
        try {
          out.push({ provider, ...(await adapter.status()) });
        } catch (error) {
          const lastError = error instanceof Error ? error.message : String(error);
          out.push({ provider, found: false, version: null, ready: false, lastError });
        }
      }
      return out;
    },
    async recover() {
      const queued = await recoverAfterRestart(options.store, repo, leases, log);
      for (const threadId of queued) executor.kick(threadId);
      stopSweep = startLeaseSweep(options.store, repo, leases, executor, log);
    },
    async waitForRun(runId) {
      // Register first, then check: a run settling in between still wakes us.
      const settled = executor.waitForRun(runId as Parameters<RunExecutor["waitForRun"]>[0]);
      const { data } = await options.store.snapshot((q) => q.get("runs", runId));
      if (data && TERMINAL_RUN_STATUSES.has(data.status ?? "")) return;
      await settled;
    },
    async shutdown() {
      stopSweep?.();
      await executor.stop();
      await sessions.closeAll();
      await leases.close();
    },
  };
}
