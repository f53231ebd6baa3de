import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import { runtimeEnvOf, type WorktreeSetups } from "../workspaces/worktree-setup.ts";
import {
  type Attachment,
  type IdSource,
  isDomainError,
  nextQueuedRun,
  type Run,
  type RunId,
  type RuntimeRequestId,
  type ThreadId,
} from "@skein/domain";
import { setTimeout as sleep, setImmediate as yieldToEventLoop } from "node:timers/promises";
import {
  type AppToolHandler,
  type ProviderFailure,
  providerFailureOf,
  type ThreadSettings,
  type TurnAttachment,
  type TurnInput,
} from "@skein/domain/provider";
import { isStoreFault, type LeaseKeeper } from "@skein/db";
import { type ActiveTurn, ActiveTurns } from "../runtime/active-turns.ts";
import type { AggregateRepository, ExecuteOptions } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import { type AttemptPolicy, DEFAULT_ATTEMPT_POLICY } from "./attempt-policy.ts";
import { failureInWords } from "./failure-policy.ts";
import { untilIdle } from "./idle-watchdog.ts";
import { ModelReachWatch } from "./model-reach.ts";
import {
  fenceAppends,
  LeaseLostError,
  type RunAppender,
  untilAborted,
} from "../recovery/lease-fence.ts";
import type { Logger } from "../logger.ts";
import {
  type Recovery,
  type RecoveryDeps,
  reattach,
  startNewAttempt,
} from "../recovery/run-recovery.ts";
import { interruptOrphanedRun } from "../recovery/recovery.ts";
import { startRun } from "./run-start-runner.ts";
import type { SessionManager } from "../runtime/session-manager.ts";
import { LiveRequests, type RequestAnswer } from "../runtime/live-requests.ts";
import type { LiveRequest } from "./turn-consumer.ts";
import { DEFAULT_START_BREAKER, StartBreaker, type StartBreakerOptions } from "./start-breaker.ts";
import { SubagentRegistry, SubagentThreads } from "../runtime/subagent-threads.ts";
import { TurnConsumer } from "./turn-consumer.ts";
import { turnTextOf } from "./plan-context.ts";
import { describeStartFailure, workspaceProblem } from "./workspace-check.ts";

export type ToolFactory = (
  threadId: ThreadId,
  runId: RunId,
) => {
  tools: NonNullable<ThreadSettings["tools"]>;
  handler: AppToolHandler;
} | null;

/** Sweeps that try again to end a run taken over from a dead instance, before giving up. */
const TAKEOVER_TRIES = 5;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** How long a run's failure is retried while the store is unavailable (issue 35). */
const STORE_RETRY_MS = 120_000;

/** Why a run stopped on an error of Skein's own, for the person reading the thread. */
function runFailureInWords(error: unknown): string {
  if (isStoreFault(error)) {
    return (
      `The run stopped because Skein lost its database (${message(error)}). ` +
      "What the agent did after that was not recorded; send the message again."
    );
  }
  return (
    `The run stopped on an unexpected error in Skein: ${message(error)}. ` +
    "Send the message again; if it keeps failing, the server log has the details."
  );
}

/** Waits for `work`, but no longer than `ms` (its failure is the caller's log's business). */
function within(ms: number, work: Promise<unknown>): Promise<unknown> {
  return Promise.race([work.catch(() => undefined), sleep(ms, undefined, { ref: false })]);
}

/** The provider refused to start a turn (its runtime died, or it rejected the request). */
class TurnNotStartedError extends Error {
  override readonly name = "TurnNotStartedError";
  readonly failure: ProviderFailure;
  constructor(cause: unknown) {
    const failure = providerFailureOf(cause);
    super(failure.message);
    this.failure = failure;
  }
}

function startTurnOrThrow<T>(start: () => T): T {
  try {
    return start();
  } catch (error) {
    throw new TurnNotStartedError(error);
  }
}

/** How a run's dispatch ended: its provider turn started, or it failed before (with why). */
type Dispatch = { started: true } | { started: false; failure: string };

/**
 * Drives queued runs: one runner per thread executes its runs in order, each through lazy
 * context resolution, one provider turn per attempt, and the runtime events of that turn.
 */
export class RunExecutor {
  private readonly runners = new Map<ThreadId, Promise<void>>();
  /** Threads kicked while their runner was running: it drains once more when it ends. */
  private readonly rekick = new Set<ThreadId>();
  private readonly turns: ActiveTurns;
  private readonly settled = new Map<RunId, Array<() => void>>();
  /** Threads whose lease another instance held when we tried to dispatch them. */
  private readonly deferred = new Set<ThreadId>();
  /**
   * Threads taken over from a dead instance whose orphaned run could not be ended yet (the append
   * failed), by that instance: the lease is given up meanwhile, so the next try cannot tell from
   * it any more, and the sweep tries again (`deferred`) instead of leaving the run "running",
   * at most TAKEOVER_TRIES times.
   */
  private readonly unfinishedTakeovers = new Map<ThreadId, { deadOwner: string; tries: number }>();
  /** Threads whose lease another instance took over while we ran them (see `leaseLost`). */
  private readonly lost = new Set<ThreadId>();
  private stopping = false;
  /** Aborts the pauses between failed starts when the server stops. */
  private readonly stopped = new AbortController();
  private readonly requests: LiveRequests;
  private readonly breaker: StartBreaker;
  /** T9: child threads following native sub-agents (see subagent-threads.ts). */
  readonly subagents = new SubagentRegistry();

  /** Where uploaded attachments are stored (E16); set by the orchestrator. */
  attachments: AttachmentStore | null = null;
  /** Issue 26: worktree setups a thread's runs wait for; set by the orchestrator. */
  workspaceSetups: WorktreeSetups | null = null;

  constructor(
    private readonly repo: AggregateRepository,
    private readonly sessions: SessionManager,
    private readonly ids: IdSource,
    private readonly log: Logger,
    private readonly toolsFor: ToolFactory,
    private readonly checkpoints: CheckpointService,
    private readonly leases: LeaseKeeper,
    breaker: StartBreakerOptions = DEFAULT_START_BREAKER,
    private readonly attempts: AttemptPolicy = DEFAULT_ATTEMPT_POLICY,
  ) {
    this.breaker = new StartBreaker(breaker);
    this.requests = new LiveRequests(repo, sessions);
    this.turns = new ActiveTurns(repo, ids, log);
  }

  /** Starts (or keeps) the thread's runner; it drains queued runs one at a time. */
  kick(threadId: ThreadId): void {
    if (this.stopping) return;
    if (this.runners.has(threadId)) {
      // The runner may already have looked at the queue and be letting its lease go: it looks
      // once more when it ends, or a run queued just now would wait for nobody.
      this.rekick.add(threadId);
      return;
    }
    const runner = this.drain(threadId)
      .catch((error) => this.log.error({ threadId, error: message(error) }, "run loop failed"))
      .finally(() => {
        this.runners.delete(threadId);
        if (this.rekick.delete(threadId)) this.kick(threadId);
      });
    this.runners.set(threadId, runner);
  }

  /**
   * A person asked to retry the thread's latest run (E4): it gets a real try even when the
   * breaker held the thread's runs back, since the person may have fixed the cause.
   */
  retried(threadId: ThreadId): void {
    this.breaker.succeeded(threadId);
    this.kick(threadId);
  }

  /** Tries again the threads another instance's lease kept us from dispatching. */
  retryDeferred(): void {
    const threads = [...this.deferred];
    this.deferred.clear();
    for (const threadId of threads) this.kick(threadId);
  }

  /** Resolves once the run has reached a terminal state in this process. */
  waitForRun(runId: RunId): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.settled.get(runId) ?? [];
      waiters.push(resolve);
      this.settled.set(runId, waiters);
    });
  }

  /**
   * Runs a thread's queued runs while holding its runtime lease. Another live instance holding
   * it executes them itself; an expired lease is taken over and the run its dead holder left in
   * flight ends `interrupted` before the queue moves on (R2: the next run resumes from refs).
   */
  private async drain(threadId: ThreadId): Promise<void> {
    const lease = await this.leases.acquire(threadId);
    if (!lease.acquired) {
      // Its holder drains our queued run if it sees it; `retryDeferred` covers the case where
      // the holder released the lease just before our run was queued.
      this.deferred.add(threadId);
      this.log.info({ threadId, owner: lease.holder.owner }, "thread runtime on another instance");
      return;
    }
    this.lost.delete(threadId);
    try {
      const previous = lease.previous;
      const takenFrom =
        previous && previous.owner !== this.leases.owner && previous.expired
          ? previous.owner
          : this.unfinishedTakeovers.get(threadId)?.deadOwner;
      if (takenFrom !== undefined) await this.endOrphanedRun(threadId, takenFrom);
      await this.drainHeld(threadId);
    } finally {
      await this.leases.release(threadId).catch((error: unknown) => {
        this.log.warn({ threadId, error: message(error) }, "runtime lease could not be released");
      });
    }
  }

  /** The run a dead instance left in flight ends `interrupted`, or the sweep tries again. */
  private async endOrphanedRun(threadId: ThreadId, deadOwner: string): Promise<void> {
    try {
      const state = await this.repo.refreshThread(threadId);
      if (state.activeRunId) {
        const why = `Skein instance ${deadOwner} stopped renewing its lease`;
        await interruptOrphanedRun(this.repo, threadId, state.activeRunId, why, this.log);
      }
      this.unfinishedTakeovers.delete(threadId);
    } catch (error) {
      const tries = (this.unfinishedTakeovers.get(threadId)?.tries ?? 0) + 1;
      if (tries < TAKEOVER_TRIES) {
        this.unfinishedTakeovers.set(threadId, { deadOwner, tries });
        this.deferred.add(threadId);
      } else {
        this.unfinishedTakeovers.delete(threadId);
        this.log.error(
          { threadId, deadOwner, tries, error: message(error) },
          "the run a dead instance left could not be ended; no more tries",
        );
      }
      throw error;
    }
  }

  private async drainHeld(threadId: ThreadId): Promise<void> {
    // Each run is dispatched at most once per drain: one picked again means nothing moved it,
    // and trying again would spin (B1).
    const dispatched = new Set<RunId>();
    for (let refreshed = false; ; ) {
      // A drain never monopolizes the event loop: health checks and signals get their turn.
      await yieldToEventLoop();
      if (this.stopping || !this.leases.holds(threadId)) return;
      const state = await this.repo.thread(threadId);
      if (!state.thread || state.activeRunId) return;
      const run = nextQueuedRun(state);
      if (!run) {
        // Another instance may have queued a run our cache has not seen; look once before
        // giving the lease up, or that run would wait for nobody.
        if (refreshed) return;
        await this.repo.refreshThread(threadId);
        refreshed = true;
        continue;
      }
      refreshed = false;
      if (dispatched.has(run.id)) {
        this.log.error(
          { threadId, runId: run.id },
          "queued run could not be dispatched; runner stops",
        );
        return;
      }
      dispatched.add(run.id);
      let outcome: Dispatch = { started: true };
      try {
        const refusal = this.breaker.refusal(threadId, run);
        if (refusal) {
          await this.failRun(threadId, run.id, refusal);
          continue;
        }
        outcome = await this.execute(threadId, run);
      } catch (error) {
        if (error instanceof LeaseLostError || this.lost.has(threadId)) {
          this.log.warn({ threadId, runId: run.id }, "run abandoned: its lease was taken over");
          return;
        }
        this.log.error({ threadId, runId: run.id, error: message(error) }, "run failed to execute");
        outcome = { started: false, failure: message(error) };
        // Issue 35: the run's end is recorded once the store answers again (a database
        // restart), or the thread would stay "running" with nobody running it.
        await this.failRunDurably(threadId, run.id, runFailureInWords(error));
      } finally {
        this.turns.end(threadId);
        for (const resolve of this.settled.get(run.id) ?? []) resolve();
        this.settled.delete(run.id);
      }
      if (this.stopping || this.lost.has(threadId)) return;
      if (outcome.started) {
        this.breaker.succeeded(threadId);
        continue;
      }
      const latest = await this.repo.thread(threadId);
      this.breaker.failed(threadId, outcome.failure, latest.runOrder.length);
      // Backoff before the next run of this thread: a cause outside Skein (a folder, a binary,
      // a network) is given time, and a thread of failing runs cannot flood the log.
      await this.pause(this.breaker.delayMs(threadId));
    }
  }

  /** Waits `ms`, or less when the server stops. */
  private async pause(ms: number): Promise<void> {
    if (ms <= 0) return;
    await sleep(ms, undefined, { signal: this.stopped.signal }).catch(() => undefined);
  }

  private async failRun(threadId: ThreadId, runId: RunId, error: string): Promise<void> {
    try {
      await this.appender(threadId).execute({ type: "FailRun", data: { threadId, runId, error } });
    } catch (cause) {
      this.log.warn({ threadId, runId, error: message(cause) }, "run could not be marked failed");
    }
  }

  /**
   * Fails a run, trying again while the store is unavailable (bounded by STORE_RETRY_MS): a
   * run whose end was never recorded would keep its thread's queue waiting for nobody.
   */
  private async failRunDurably(threadId: ThreadId, runId: RunId, error: string): Promise<void> {
    const deadline = Date.now() + STORE_RETRY_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const appends = this.appender(threadId);
        const ended = await appends
          .execute({ type: "FailRun", data: { threadId, runId, error } })
          .then(
            () => true,
            (refused: unknown) => {
              if (!isDomainError(refused)) throw refused;
              return false;
            },
          );
        // A turn still open (its end never recorded) is ended with the run, as a restart would.
        if (!ended) {
          await appends.execute({
            type: "RecoverInterruptedRun",
            data: { threadId, runId, reason: error },
          });
        }
        return;
      } catch (cause) {
        const storeDown = isStoreFault(cause);
        if (!storeDown || this.stopping || this.lost.has(threadId) || Date.now() > deadline) {
          this.log.warn(
            { threadId, runId, error: message(cause) },
            "run could not be marked failed",
          );
          return;
        }
        await this.pause(Math.min(250 * 2 ** attempt, 5_000));
      }
    }
  }

  /** Fails a run that could not start, once, and says so to the drain. */
  private async refuse(threadId: ThreadId, run: Run, failure: string): Promise<Dispatch> {
    this.log.warn({ threadId, runId: run.id, failure }, "run failed before it started");
    await this.failRun(threadId, run.id, failure);
    return { started: false, failure };
  }

  private async execute(threadId: ThreadId, run: Run): Promise<Dispatch> {
    const state = await this.repo.thread(threadId);
    const thread = state.thread!;
    const text = state.messages.get(run.userMessageId)?.text ?? "";
    const project = await this.repo.project(thread.projectId);
    const cwd = thread.worktreePath ?? project.project?.workspaceRoot ?? process.cwd();
    // Folders get moved and deleted: look before opening a runtime in one (B1).
    const problem = await workspaceProblem(cwd);
    if (problem) return this.refuse(threadId, run, problem);
    // A new worktree's setup script (issue 26) runs before its first run; a failed one is shown
    // on the thread and the run goes ahead.
    await this.workspaceSetups?.settled(state);
    // Before any provider work touches the folder: what the thread's first checkpoint diffs from.
    await this.checkpoints.captureBaseline(threadId, state, cwd);
    const appTools = this.toolsFor(threadId, run.id);
    const settings: ThreadSettings = {
      cwd,
      model: run.model ?? null,
      runtimeMode: thread.runtimeMode,
      ...(appTools ? { tools: appTools.tools } : {}),
      ...(thread.port != null ? { env: runtimeEnvOf(thread) } : {}),
    };
    let prepared: Awaited<ReturnType<typeof startRun>>;
    try {
      // Resolves the run's context and records its start (provider thread, transfer, handoff,
      // StartRun) in one append; see packages/transfer/src/run-start.
      prepared = await startRun(
        {
          repo: this.repo,
          sessions: this.sessions,
          ids: this.ids,
          appends: this.appender(threadId),
        },
        threadId,
        run,
        text,
        settings,
      );
    } catch (error) {
      if (error instanceof LeaseLostError || this.lost.has(threadId)) throw error;
      this.log.warn({ threadId, runId: run.id, error: message(error) }, "run could not start");
      return this.refuse(threadId, run, await describeStartFailure(error, run.provider, cwd));
    }
    if ("failed" in prepared) return this.refuse(threadId, run, prepared.failed);
    const { session, nativeThreadRef } = prepared;
    const active = this.turns.begin(threadId, run.id, session, nativeThreadRef);
    let input: TurnInput = {
      text: turnTextOf(state, run, text),
      interactionMode: run.interactionMode ?? "default",
      effort: run.effort ?? null,
      context: prepared.handoff
        ? { handoffId: prepared.handoff.handoffId, text: prepared.handoff.text }
        : null,
      ...(run.compact ? { compact: true } : {}),
      ...(await this.attachmentsOf(state.messages.get(run.userMessageId)?.attachments)),
    };
    const recovery: Recovery = { retries: 0, pending: null };
    for (;;) {
      try {
        await this.runTurn(threadId, run.id, active, input, settings, appTools?.handler, recovery);
      } catch (error) {
        if (!(error instanceof TurnNotStartedError)) throw error;
        // The run started but its provider refused the turn: one failure, in words.
        await this.failRun(threadId, run.id, failureInWords(run.provider, error.failure));
        break;
      }
      if (this.stopping) break;
      if (recovery.pending) {
        // B2: the same input again, on a runtime that is alive (resuming the provider thread
        // from its persisted ref when the old runtime died), after a growing pause.
        const { failure, delayMs } = recovery.pending;
        recovery.pending = null;
        await this.pause(delayMs);
        if (this.stopping) break;
        try {
          await reattach(this.recoveryDeps(threadId), threadId, active, run, settings);
        } catch (error) {
          await this.failRun(
            threadId,
            run.id,
            failureInWords(run.provider, {
              ...failure,
              message: `${failure.message}; a new runtime could not take the run over (${message(error)})`,
            }),
          );
          break;
        }
        continue;
      }
      if (active.restartWith === null) break;
      input = { ...input, text: active.restartWith, context: null };
      active.restartWith = null;
    }
    if (this.lost.has(threadId)) throw new LeaseLostError(threadId);
    const ended = (await this.repo.thread(threadId)).runs.get(run.id);
    if (ended) await this.checkpoints.captureRun(threadId, ended, cwd);
    return { started: true };
  }

  /** E16: the message's stored files as the adapter reads them (local paths, sniffed types). */
  private async attachmentsOf(
    attachments: readonly Attachment[] | undefined,
  ): Promise<{ attachments?: TurnAttachment[] }> {
    if (!attachments?.length || !this.attachments) return {};
    const store = this.attachments;
    const files = await Promise.all(
      attachments.map(async (a) => {
        const stored = await store.get(a.ref);
        return { name: a.name, mimeType: stored.mimeType, path: stored.path };
      }),
    );
    return { attachments: files };
  }

  private async runTurn(
    threadId: ThreadId,
    runId: RunId,
    active: ActiveTurn,
    input: TurnInput,
    settings: ThreadSettings,
    onAppToolCall: AppToolHandler | undefined,
    recovery: Recovery,
  ): Promise<void> {
    const { session } = active;
    const providerTurnId = this.ids.next("providerTurn");
    // Taken now: a failure starts the next attempt (and counts it) before it is described, and
    // each attempt's error must name its own attempt, not the one it hands over to.
    const attempt = recovery.retries + 1;
    this.sessions.begin(session);
    try {
      const turn = startTurnOrThrow(() =>
        session.handle.startTurn(active.nativeThreadRef, input, {
          settings,
          ...(onAppToolCall ? { onAppToolCall } : {}),
        }),
      );
      const { nativeTurnRef } = await turn.started.catch((error: unknown) => {
        throw new TurnNotStartedError(error);
      });
      // Steering may arrive as soon as the turn exists natively; its command queues behind this
      // one on the thread's stream, so the turn is recorded first either way.
      active.nativeTurnRef = nativeTurnRef;
      active.started = true;
      const appends = this.appender(threadId);
      const recorded = appends.execute({
        type: "StartProviderTurn",
        data: { threadId, runId, providerTurnId, nativeTurnRef },
      });
      await recorded;
      if (active.interruptRequested) void this.turns.interruptNative(active);
      const onRequest = (requestId: RuntimeRequestId, live: LiveRequest | null) => {
        if (live) this.requests.remember(requestId, live);
        else this.requests.forget(requestId);
      };
      const stopReason = () =>
        this.stopping ? "Skein was stopped while the run was in flight" : null;
      const children = new SubagentThreads({
        repo: this.repo,
        appends,
        ids: this.ids,
        log: this.log,
        registry: this.subagents,
        parentThreadId: threadId,
        provider: session.provider,
        providerSessionId: session.providerSessionId,
        onRequest,
        stopReason,
        interruptNative: (ref, turnRef) => session.handle.interruptTurn(ref, turnRef),
      });
      const reach = new ModelReachWatch({
        provider: session.provider,
        boundMs: this.attempts.unreachableMs,
        note: (progress) =>
          appends.execute({ type: "NoteRunProgress", data: { threadId, runId, progress } }).then(
            () => undefined,
            (error: unknown) => this.log.warn({ runId, error: message(error) }, "notice lost"),
          ),
        giveUp: () => this.turns.interruptNative(active),
      });
      const consumer = new TurnConsumer(
        appends,
        this.ids,
        threadId,
        providerTurnId,
        session.providerSessionId,
        onRequest,
        stopReason,
        {
          // B15: the runtime already retried a model it could not reach; another attempt would too.
          before: async (failure) => {
            if (reach.unreachable) return;
            await startNewAttempt(
              this.recoveryDeps(threadId),
              threadId,
              runId,
              active,
              recovery,
              failure,
            );
          },
          describe: (failure) => failureInWords(session.provider, failure, attempt),
        },
        children,
      );
      const events = untilIdle(
        reach.watch(turn.events),
        this.attempts.idleTimeoutMs,
        async () => (await this.repo.thread(threadId)).runs.get(runId)?.status === "waiting",
        () => this.turns.interruptNative(active),
      );
      try {
        await consumer.consume(untilAborted(events, active.abandon.signal, threadId));
      } catch (error) {
        // The turn's events could not be recorded (the store went away): the provider's turn
        // must not go on working unrecorded.
        if (active.started && !(error instanceof LeaseLostError)) {
          await this.turns.interruptNative(active).catch(() => undefined);
        }
        throw error;
      }
    } finally {
      // The lease may be lost before the turn started natively, or found lost by the fence
      // before the renewal timer reports it: either way the native turn must stop.
      if (this.lost.has(threadId) && active.started) await this.turns.interruptForLoss(active);
      this.sessions.end(session);
      active.started = false;
    }
  }

  private recoveryDeps(threadId: ThreadId): RecoveryDeps {
    return {
      repo: this.repo,
      sessions: this.sessions,
      ids: this.ids,
      log: this.log,
      policy: this.attempts,
      appends: this.appender(threadId),
      halted: () => this.stopping || this.lost.has(threadId),
    };
  }

  /** Appends for a thread's runs, fenced by its lease (see lease-fence.ts). */
  private appender(threadId: ThreadId): RunAppender {
    return fenceAppends(this.repo, this.leases, threadId, {
      has: (id) => this.lost.has(id),
      add: (id) => this.leaseLost(id),
    });
  }

  /**
   * The thread's lease expired and another instance took it over (and ends the run
   * `interrupted`): stop the turn here, forget its requests, and append nothing more for it.
   */
  leaseLost(threadId: ThreadId): void {
    this.lost.add(threadId);
    this.requests.forgetThread(threadId);
    this.turns.abandon(threadId);
  }

  async interrupt(threadId: ThreadId, answer?: ExecuteOptions): Promise<number> {
    // Recorded before the parent's native interrupt, which ends the sub-agents' turns too.
    await this.interruptChildren(threadId);
    const sequence = await this.turns.interrupt(threadId, answer);
    // A child thread following a native sub-agent has no turn of its own here: its parent's
    // runtime stops it (T9); its run ends when the provider reports the sub-agent's turn ended.
    const child = this.subagents.runningTurn(threadId);
    if (child) {
      await child.interrupt().catch((error: unknown) => {
        this.log.warn({ threadId, error: message(error) }, "sub-agent interrupt not delivered");
      });
    }
    return sequence;
  }

  /**
   * T9: the parent's native sub-agents are interrupted with it, as if the person asked each of
   * them (their open requests are then cancelled, not stranded); the provider stops their native
   * turns along with the parent's.
   */
  private async interruptChildren(parentThreadId: ThreadId): Promise<void> {
    for (const childId of this.subagents.delegatedUnder(parentThreadId)) {
      await this.stopChild(childId).catch((error: unknown) => {
        this.log.warn({ threadId: childId, error: message(error) }, "delegated run not stopped");
      });
    }
    for (const childId of this.subagents.runningUnder(parentThreadId)) {
      const runId = (await this.repo.thread(childId)).activeRunId;
      if (!runId) continue;
      await this.appender(parentThreadId)
        .execute({ type: "InterruptRun", data: { threadId: childId, runId } })
        .catch((error: unknown) => {
          this.log.warn(
            { threadId: childId, error: message(error) },
            "sub-agent run not interrupted",
          );
        });
    }
  }

  /**
   * Stops a delegated child thread's current work: its active run is interrupted (and so its own
   * children), a run still queued is cancelled.
   */
  async stopChild(childId: ThreadId): Promise<void> {
    const state = await this.repo.thread(childId);
    if (state.activeRunId) {
      await this.interrupt(childId);
      return;
    }
    for (const runId of state.queuedRunIds) {
      await this.repo.execute({ type: "CancelQueuedRun", data: { threadId: childId, runId } });
      for (const resolve of this.settled.get(runId) ?? []) resolve();
      this.settled.delete(runId);
    }
  }

  steer(threadId: ThreadId, text: string, answer?: ExecuteOptions): Promise<number> {
    return this.turns.steer(threadId, text, answer);
  }

  /** Answers a request this instance's runtime asked (see live-requests.ts). */
  respond(
    requestId: RuntimeRequestId,
    threadId: ThreadId,
    answer: RequestAnswer,
    receipt?: ExecuteOptions,
  ): Promise<number> {
    return this.requests.respond(requestId, threadId, answer, receipt);
  }

  /** Stops starting new runs and interrupts running turns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopped.abort();
    // A runtime that ignores the interrupt (or never answers) cannot hold the shutdown up.
    await within(3_000, this.turns.interruptAll());
    await within(5_000, Promise.allSettled([...this.runners.values()]));
  }
}
