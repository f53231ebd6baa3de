import path from "node:path";
import { AttachmentStore } from "../attachments/attachment-store.ts";
import { type EventStore, LeaseKeeper } from "@skein/db";
import {
  type ContextTransferId,
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  type ProjectSettings,
  type ProviderKind,
  type RunId,
  type ThreadId,
  threadStreamId,
} from "@skein/domain";
import { PROVIDER_IDS, type ProviderAdapter, type RawEventSink } from "@skein/domain/provider";
import { createIdGenerator } from "../runtime/id-generator.ts";
import { AggregateRepository } from "./commands/aggregate-repository.ts";
import { type AttemptPolicy, DEFAULT_ATTEMPT_POLICY } from "@skein/domain/run-life";
import { CheckpointService } from "./checkpoints/checkpoint-service.ts";
import { CommandGate, type CommandProcedure } from "./commands/command-gate.ts";
import { ProviderReadinessCache } from "./runtime/provider-readiness.ts";
import {
  createDelegateHandler,
  DEFAULT_DELEGATE_TIMEOUT_MS,
  DELEGATE_TOOL,
} from "./runtime/delegate-tool.ts";
import { createHistoryHandler } from "./runtime/history-tool.ts";
import { createSideTurnWriter } from "./transfers/side-turn-summary.ts";
import { HISTORY_TOOL } from "@skein/transfer";
import { fanOut } from "./parallel/fan-out.ts";
import { compareForks } from "./parallel/fork-compare.ts";
import { compareDiff } from "./parallel/fork-diff.ts";
import { pickWinner } from "./parallel/pick-winner.ts";
import { forkSiblings } from "./parallel/fork-sibling.ts";
import { forkThread } from "./parallel/fork-workspace.ts";
import { createThread } from "./workspaces/create-thread.ts";
import { WorktreeSetups } from "./workspaces/worktree-setup.ts";
import { editHandoff, regenerateHandoff } from "./transfers/handoff-commands.ts";
import { compactsNatively, skeinCompaction } from "./transfers/skein-compaction.ts";
import { providerHandoffsBeforeStart } from "./transfers/default-writer.ts";
import { draftHandoff } from "./transfers/handoff-draft.ts";
import { netDiffReader } from "./transfers/net-diffs.ts";
import { type Logger, silentLogger } from "./logger.ts";
import { recoverAfterRestart, startLeaseSweep } from "./recovery/recovery.ts";
import { watchThreadsAtStart } from "./recovery/thread-watchers.ts";
import { reviewDiff } from "./checkpoints/review-diff.ts";
import { searchWorkspaceFiles } from "./workspaces/file-search.ts";
import { rollbackToCheckpoint } from "./checkpoints/rollback.ts";
import { planRollback, previewOf } from "./checkpoints/rollback-plan.ts";
import { reviewRevert } from "./checkpoints/review-revert.ts";
import { runCommands } from "./runs/run-commands.ts";
import { RunExecutor } from "./runs/run-executor.ts";
import { RunSlots } from "./runs/run-slots.ts";
import { createQueueMessage } from "./runs/send-message.ts";
import { bringBackCodeOnly } from "./parallel/bring-back-code-only.ts";
import { ensureThreadPort } from "./workspaces/thread-ports.ts";
import { checkModelChoice } from "./runs/model-choice.ts";
import { ProviderModels } from "./runs/provider-models.ts";
import { RuntimeForwarder } from "./runtime/runtime-forwarding.ts";
import { noRuntimeRemote, type RuntimeRemote } from "./runtime/runtime-remote.ts";
import type { OrchestratorCommands } from "@skein/contract";
import { resumeIntent, resumeTable } from "./commands/resume-intents.ts";
import {
  type RuntimeLimits,
  type RuntimeStats,
  SessionManager,
} from "./runtime/session-manager.ts";
import { DEFAULT_START_BREAKER } from "./runs/start-breaker.ts";
import { threadImportCommands } from "./threads/thread-import.ts";
import { adoptCommands } from "./threads/adopt-sessions.ts";
import { threadSettingsCommands } from "./threads/thread-settings.ts";
import { queueCommands } from "./threads/queue-commands.ts";
import { threadDeleteCommands } from "./threads/thread-delete.ts";
import { DEFAULT_WORKTREE_GRACE_MS, sweepWorktrees } from "./parallel/worktree-hygiene.ts";
import { type GitHubSettings, gitFinishCommands } from "./git/git-finish-commands.ts";
import type { PullRequestWatch } from "./git/pr-watch.ts";
import { UsageLimitWaits } from "./limits/usage-limit-waits.ts";
import { realWaitClock, type WaitClock } from "./limits/wait-clock.ts";

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
  /**
   * Where plain folders' checkpoint git dirs live (default `<dataDir>/checkpoints`). Instances
   * sharing a database share it too (issue 35): a run's checkpoint is captured on whichever
   * instance ran it, against the previous run's checkpoint, which another may have taken.
   */
  checkpointsDir?: string;
  ids?: IdSource;
  now?: () => Date;
  log?: Logger;
  rawLog?: RawEventSink;
  /** Idle provider runtimes are closed after this long (0 disables reaping). */
  sessionIdleMs?: number;
  /** B21: when a runtime holding many native threads is recycled (session-manager.ts). */
  runtimeLimits?: RuntimeLimits;
  /** Capture a workspace checkpoint at the end of every root run (default true). */
  captureCheckpoints?: boolean;
  /**
   * Names this instance in runtime leases; instances sharing a database need distinct ids, and a
   * restarted instance should keep its id (its old leases are then recovered at once).
   */
  instanceId?: string;
  /** How long a runtime lease outlives its holder's last renewal; default 30 s. */
  leaseTtlMs?: number;
  /** How runtime commands reach the instance that holds a thread (default: no other instance). */
  remote?: RuntimeRemote;
  /** B2: new attempts of a run after provider failures mid-turn (defaults: 2, from 500 ms). */
  attempts?: Partial<AttemptPolicy>;
  /** T9: how long a delegated child run may take before it is interrupted (default 15 min). */
  delegateTimeoutMs?: number;
  /** Issue 25: how long a provider may take to write a handoff before Skein writes it (2 min). */
  summaryTimeoutMs?: number;
  /** B9: how many fan-out fork runs run at once in this process (default 4). */
  fanOutConcurrency?: number;
  /** B9: archived, merged and orphaned fork worktrees are removed this long after (24 h). */
  worktreeGraceMs?: number;
  /** Issue 26: how long a worktree's setup script may run (default 10 min). */
  setupTimeoutMs?: number;
  /** Issue 33: how long a deleted thread keeps its worktree and refs (default 7 days). */
  purgeGraceMs?: number;
  /** B15: how long a provider's readiness (authentication included) is reused (default 30 s). */
  readinessTtlMs?: number;
  /** B17: GitHub's API and token (default: api.github.com, GITHUB_TOKEN/GH_TOKEN, `gh`). */
  github?: GitHubSettings;
  /**
   * Issue 32: waiting out usage limits: the clock the waits use (tests move their own), the
   * wait when a provider named no reset (15 min) and the resumes in a row (3).
   */
  usageLimits?: { clock?: WaitClock; defaultWaitMs?: number; maxResumes?: number };
  /** Tests only: a fault between a bring-back's files and its append (crash recovery, B9). */
  afterBringBackFiles?: () => Promise<void> | void;
};

export type Orchestrator = OrchestratorCommands & {
  /** R2: ends runs left in flight by a previous process and re-dispatches queued runs. */
  recover(): Promise<void>;
  /**
   * Resolves once the start-up pass `recover` begins has handed every thread to the pull request
   * watch and the usage-limit waits; it runs after `recover` returns, so the server answers first.
   */
  watching(): Promise<void>;
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
  /** B17: the pull-request watch (webhooks ask it to poll). */
  readonly pullRequests: PullRequestWatch;
  /** B21: the live provider runtimes and the native threads they hold. */
  runtimeStats(): RuntimeStats;
  /** Issue 32: the resumes planned for threads waiting out a usage limit. */
  readonly usageLimits: UsageLimitWaits;
};

/** Wires the repository, session manager and run executor into the command side of Skein. */
export async function createOrchestrator(options: OrchestratorOptions): Promise<Orchestrator> {
  const ids = options.ids ?? createIdGenerator();
  const now = options.now ?? (() => new Date());
  const log = options.log ?? silentLogger;
  const repo = new AggregateRepository(options.store, now, ids);
  // A thread created without a provider gets the first registered one this server runs.
  const defaultProvider =
    PROVIDER_IDS.find((provider) => options.adapters[provider]) ?? PROVIDER_IDS[0];
  const sessions = new SessionManager(
    options.adapters,
    (command) => repo.execute(command),
    () => ids.next("providerSession"),
    log,
    options.rawLog,
    options.sessionIdleMs ?? 10 * 60_000,
    options.instanceId ?? "local",
    options.runtimeLimits,
  );
  const checkpoints = new CheckpointService(
    repo,
    ids,
    options.checkpointsDir ?? path.join(options.dataDir, "checkpoints"),
    log,
    options.captureCheckpoints ?? true,
  );
  const toolsFor = (threadId: ThreadId, runId: RunId) => {
    const state = repo.peekThread(threadId);
    const provider = state?.runs.get(runId)?.provider;
    if (!provider || !sessions.adapter(provider)?.capabilities.appOwnedTools) return null;
    const delegate = createDelegateHandler(repo, executor, ids, threadId, runId, {
      timeoutMs: options.delegateTimeoutMs ?? DEFAULT_DELEGATE_TIMEOUT_MS,
    });
    const history = createHistoryHandler(repo, threadId, runId);
    return {
      // The same set on every turn: a runtime keeps the tools its thread was opened with.
      tools: [DELEGATE_TOOL, HISTORY_TOOL],
      handler: (call: Parameters<typeof delegate>[0]) =>
        call.toolName === HISTORY_TOOL.name ? history(call) : delegate(call),
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
    DEFAULT_START_BREAKER,
    { ...DEFAULT_ATTEMPT_POLICY, ...options.attempts },
  );
  const attachmentStore = AttachmentStore.inDataDir(options.dataDir);
  executor.attachments = attachmentStore;
  let stopSweep: (() => void) | null = null;
  /** The start-up pass that hands threads to their watchers (see `recover`). */
  let watchersStarted: Promise<void> = Promise.resolve();
  let stopping = false;
  const gate = new CommandGate(options.store, ids, log, leases.owner, leases.ttlMs);
  const runtime = new RuntimeForwarder(leases, repo, options.remote ?? noRuntimeRemote, log);
  sessions.askPeersToRelease = (nativeThreadRef) => runtime.askPeersToRelease(nativeThreadRef);
  const models = new ProviderModels((provider) => sessions.adapter(provider));
  const catalog = (provider: ProviderKind) => models.list(provider);

  const requireThread = async (threadId: ThreadId) => {
    const state = await repo.thread(threadId);
    if (!state.thread) throw new NotFoundError("thread", threadId);
    return state;
  };

  const handoffDeps = {
    repo,
    ids,
    capabilities: (provider: ProviderKind) => sessions.adapter(provider)?.capabilities ?? null,
    summaries: createSideTurnWriter(sessions, options.summaryTimeoutMs),
    netDiffs: netDiffReader(checkpoints, log),
  };

  executor.handoffsBeforeStart = providerHandoffsBeforeStart(handoffDeps, log);
  executor.skeinCompaction = skeinCompaction(handoffDeps, log);
  const setups = new WorktreeSetups(repo, log, options.setupTimeoutMs);
  executor.workspaceSetups = setups;
  executor.threadPort = (threadId) =>
    ensureThreadPort({ store: options.store, claims: gate.claims, repo }, threadId);
  const forkDeps = {
    repo,
    checkpoints,
    ids,
    dataDir: options.dataDir,
    store: options.store,
    claims: gate.claims,
    setups,
    siblings: forkSiblings(options.store),
  };
  const hygieneDeps = {
    store: options.store,
    repo,
    checkpoints,
    dataDir: options.dataDir,
    now,
    log,
  };
  const worktreeGraceMs = options.worktreeGraceMs ?? DEFAULT_WORKTREE_GRACE_MS;

  const threadOfTransfer = async (transferId: ContextTransferId): Promise<ThreadId> => {
    const { data } = await options.store.snapshot((q) => q.get("transfers", transferId));
    if (!data?.threadId) throw new NotFoundError("transfer", transferId);
    return data.threadId as ThreadId;
  };

  const readiness = new ProviderReadinessCache(
    (provider) => sessions.adapter(provider),
    options.readinessTtlMs,
  );
  const queueMessage = createQueueMessage({
    gate,
    repo,
    ids,
    now,
    checkpoints,
    attachments: attachmentStore,
    adapter: (provider) => sessions.adapter(provider),
    requireReady: (provider) => readiness.requireReady(provider),
    catalog,
    handoffDeps,
    ...(options.afterBringBackFiles ? { afterBringBackFiles: options.afterBringBackFiles } : {}),
  });
  const slots = new RunSlots(
    options.fanOutConcurrency ?? 4,
    (threadId) => executor.kick(threadId),
    (runId) => api.waitForRun(runId),
  );

  const gitFinish = gitFinishCommands({
    gate,
    repo,
    store: options.store,
    log,
    requireThread,
    sendMessage: (input) => api.sendMessage(input),
    archive: (input) => api.archive(input),
    github: options.github ?? { env: {} },
  });

  const usageLimits = new UsageLimitWaits({
    repo,
    store: options.store,
    log,
    clock: options.usageLimits?.clock ?? realWaitClock,
    ...(options.usageLimits?.defaultWaitMs !== undefined
      ? { defaultWaitMs: options.usageLimits.defaultWaitMs }
      : {}),
    ...(options.usageLimits?.maxResumes !== undefined
      ? { maxResumes: options.usageLimits.maxResumes }
      : {}),
    resume: async (threadId, runId, commandId) => {
      const input: { threadId: ThreadId; runId: RunId; commandId: string } = {
        threadId,
        runId,
        commandId,
      };
      await gate.run("thread.resumeAfterUsageLimit", input, async (command) => {
        const result = await repo.execute(
          { type: "ResumeAfterUsageLimit", data: { threadId, runId } },
          command.answer({ runId }),
        );
        if (!result.duplicate) executor.retried(threadId);
        return { sequence: result.sequence };
      });
    },
  });
  executor.usageLimitHeld = (threadId) => {
    void usageLimits.consider(threadId);
  };

  const deletes = threadDeleteCommands({
    ...hygieneDeps,
    gate,
    requireThread,
    ...(options.purgeGraceMs === undefined ? {} : { graceMs: options.purgeGraceMs }),
  });

  const api: Orchestrator = {
    repository: repo,
    pullRequests: gitFinish.watch,
    usageLimits,
    instanceId: leases.owner,
    stopLeaseRenewal: () => {
      leases.stopRenewal();
      stopSweep?.();
    },
    resumeLeaseRenewal: () => leases.resumeRenewal(),
    advertise: (url) => leases.setAddress(url),
    createProject: (input) =>
      gate.run("project.create", input, async (command) => {
        const projectId = ids.next("project");
        const result = await repo.execute(
          {
            type: "CreateProject",
            data: {
              projectId,
              title: input.name,
              workspaceRoot: input.workspaceRoot,
              ...(input.settings ? { settings: input.settings } : {}),
            },
          },
          command.answer({ projectId }),
        );
        return {
          ...(result.receipt as { projectId: typeof projectId }),
          sequence: result.sequence,
        };
      }),
    updateProjectSettings: (input) =>
      gate.run("project.updateSettings", input, async (command) => {
        const result = await repo.execute(
          { type: "UpdateProjectSettings", data: input },
          command.answer((events) => {
            const updated = events.find((event) => event.type === "ProjectSettingsUpdated");
            return updated?.type === "ProjectSettingsUpdated"
              ? { settings: updated.data.settings }
              : {};
          }),
        );
        return {
          ...(result.receipt as { settings: ProjectSettings }),
          sequence: result.sequence,
        };
      }),
    createThread: (input) =>
      gate.run(
        "thread.create",
        input,
        async (command) => {
          if (input.provider) readiness.requireKnown(input.provider);
          const provider = input.provider ?? defaultProvider;
          await checkModelChoice(catalog, {
            provider,
            model: input.model ?? null,
            effort: input.effort ?? null,
          });
          return createThread(forkDeps, command, { ...input, provider });
        },
        { effects: input.workspace !== "local" },
      ),
    sendMessage: (input) => queueMessage(input, (threadId) => executor.kick(threadId)),
    bringBackCode: (input) =>
      gate.run(
        "thread.bringBackCode",
        input,
        (command) => bringBackCodeOnly({ repo, checkpoints, ids }, input, command),
        { effects: true },
      ),
    fanOut: (input) =>
      gate.run(
        "thread.fanOut",
        input,
        async (command) => {
          const source = await requireThread(input.threadId);
          for (const target of input.targets) {
            await checkModelChoice(catalog, {
              provider: target.provider,
              model: target.model ?? null,
              effort: target.effort ?? null,
            });
          }
          await checkpoints.settleLatestRun(source);
          return fanOut(
            {
              forkThread: (forkInput) => api.forkThread(forkInput),
              queueMessage,
              dispatch: (threadId, runId) => slots.dispatch(threadId, runId),
              configured: (provider) => sessions.adapter(provider) !== undefined,
              firstSibling: () =>
                forkDeps.siblings.next(source, { type: "latest_stable" }, input.targets.length),
            },
            command,
            input,
          );
        },
        { effects: true, composite: { streamId: threadStreamId(input.threadId) } },
      ),
    ...runCommands({
      gate,
      repo,
      store: options.store,
      ids,
      runtime,
      executor,
      requireThread,
      compactsNatively: (provider) =>
        compactsNatively(sessions.adapter(provider)?.capabilities ?? null),
    }),
    // A fan-out's sibling number is counted when it runs, not part of what the command asks: a
    // retry under the same id (counting the forks it made itself) is still the same command.
    forkThread: ({ sibling, ...input }) =>
      gate.run(
        "thread.fork",
        input,
        async (command) => {
          const spec = input.sourcePoint ?? { type: "latest_stable" as const };
          if (spec.type === "latest_stable") {
            await checkpoints.settleLatestRun(await requireThread(input.threadId));
          }
          const source = await requireThread(input.threadId);
          return forkThread(forkDeps, command, source, {
            ...input,
            ...(sibling !== undefined ? { sibling } : {}),
            sourcePoint: spec,
          });
        },
        { effects: input.isolatedWorkspace !== false },
      ),
    runtimeStats: () => sessions.stats(),
    async releaseProviderThread({ nativeThreadRef }) {
      return { outcome: await sessions.releaseThread(nativeThreadRef) };
    },
    rollback: (input) =>
      gate.run(
        "thread.rollback",
        input,
        (command) => {
          const deps = { store: options.store, repo, sessions, checkpoints, ids, clock: now, log };
          return rollbackToCheckpoint(deps, input, command);
        },
        { effects: true },
      ),
    rollbackPreview: async (input) =>
      previewOf(
        await planRollback(
          { repo, checkpoints, ids, clock: now },
          input.threadId,
          input.checkpointId,
          input.scope ?? "both",
        ),
      ),
    ...threadSettingsCommands({
      gate,
      repo,
      runtime,
      executor,
      log,
      requireThread,
      catalog,
      store: options.store,
      claims: gate.claims,
      usageLimitChanged: (threadId) => {
        void usageLimits.consider(threadId);
      },
    }),
    ...queueCommands({ gate, repo, requireThread }),
    ...threadImportCommands({ gate, repo, store: options.store }),
    ...deletes,
    ...gitFinish.commands,
    ...adoptCommands({
      gate,
      repo,
      store: options.store,
      ids,
      adapterOf: (provider) => sessions.adapter(provider),
    }),
    regenerateHandoff: (input) =>
      gate.run("handoff.regenerate", input, async (command) => {
        const threadId = await threadOfTransfer(input.transferId);
        const target = { transferId: input.transferId, threadId, command };
        return regenerateHandoff(handoffDeps, target, input.provider ?? null, input.writer);
      }),
    editHandoff: (input) =>
      gate.run("handoff.edit", input, async (command) => {
        const threadId = await threadOfTransfer(input.transferId);
        return editHandoff(
          handoffDeps,
          { transferId: input.transferId, threadId, command },
          input.text,
        );
      }),
    providerModels: (provider) => models.list(provider),
    draftHandoff: async ({ threadId, ...rest }) =>
      draftHandoff(handoffDeps, await requireThread(threadId), rest),
    sweepWorktrees: (input) => sweepWorktrees(hygieneDeps, { graceMs: worktreeGraceMs, ...input }),
    compareForks: (input) => compareForks({ repo, checkpoints }, input),
    compareDiff: (input) => compareDiff({ repo, checkpoints }, input),
    pickWinner: (input) =>
      gate.run(
        "thread.pickWinner",
        input,
        (command) =>
          pickWinner(
            {
              repo,
              sendMessage: (message) => api.sendMessage(message),
              archive: (archive) => api.archive(archive),
            },
            command,
            input,
          ),
        { effects: true, composite: { streamId: threadStreamId(input.threadId) } },
      ),
    searchFiles: async ({ threadId, query, limit }) => {
      const state = await requireThread(threadId);
      const project = await repo.project(state.thread!.projectId);
      const root = state.thread!.worktreePath ?? project.project?.workspaceRoot;
      if (!root) throw new PreconditionFailedError("the thread has no workspace to search");
      return searchWorkspaceFiles(root, query, limit);
    },
    reviewDiff: async (input) =>
      reviewDiff(checkpoints, await requireThread(input.threadId), input),
    reviewRevert: (input) =>
      gate.run(
        "review.revert",
        input,
        async (command) =>
          reviewRevert(
            { repo, checkpoints, ids },
            await requireThread(input.threadId),
            input,
            command,
          ),
        { effects: true },
      ),
    async providerStatus(input) {
      return Promise.all(
        sessions.providerIds().map(async (provider) => {
          const adapter = sessions.adapter(provider);
          const { auth, ...status } = await readiness.get(provider, input ?? {});
          // What the provider supports natively (the README's table comes from the same flags).
          return {
            provider,
            name: sessions.displayName(provider),
            ...status,
            auth: auth ?? null,
            capabilities: adapter?.capabilities ?? null,
          };
        }),
      );
    },
    async recover() {
      const queued = await recoverAfterRestart(options.store, repo, leases, log);
      // After in-flight runs are ended (a rollback refuses while a run is active), before queued
      // runs start in a workspace an unfinished rollback is about to restore.
      await gate.resumeIntents(resume);
      // After unfinished forks recorded their worktrees: what is left unrecorded is an orphan.
      await sweepWorktrees(hygieneDeps, { graceMs: worktreeGraceMs }).catch((error: unknown) =>
        log.warn({ err: error }, "worktree sweep at startup failed"),
      );
      await deletes
        .purgeDeleted()
        .catch((error: unknown) => log.warn({ err: error }, "purge at startup failed"));
      for (const threadId of queued) executor.kick(threadId);
      stopSweep = startLeaseSweep(options.store, repo, leases, executor, log);
      watchersStarted = watchThreadsAtStart(
        options.store,
        [gitFinish.watch, usageLimits],
        () => stopping,
      ).catch((error: unknown) => {
        if (!stopping)
          log.warn({ err: error }, "pull request and usage limit watches did not start");
      });
    },
    watching: () => watchersStarted,
    async waitForRun(runId) {
      // Register first, then check: a run settling in between still wakes us.
      const settled = executor.waitForRun(runId as Parameters<RunExecutor["waitForRun"]>[0]);
      const { data } = await options.store.snapshot((q) => q.get("runs", runId));
      if (data && TERMINAL_RUN_STATUSES.has(data.status ?? "")) return;
      await settled;
    },
    async shutdown() {
      stopping = true;
      stopSweep?.();
      // The start-up pass stops at its next thread; nothing of it outlives the store.
      await watchersStarted;
      gitFinish.watch.stop();
      usageLimits.stop();
      await executor.stop();
      await sessions.closeAll();
      // Snapshots the last runs left due: written now, so the next start replays less.
      await repo.snapshotsWritten();
      await leases.close();
    },
  };
  /** Commands that record an intent (B3), run again under their id to finish after a crash. */
  const resumable = resumeTable(api);
  const resume = (procedure: CommandProcedure, input: Record<string, unknown>) =>
    resumeIntent(resumable, procedure, input);
  return api;
}
