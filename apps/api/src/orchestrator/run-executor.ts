import {
  type IdSource,
  nextQueuedRun,
  type Run,
  type RunId,
  type RuntimeRequestId,
  type ThreadId,
} from "@skein/domain";
import type { AppToolHandler, ThreadSettings, TurnInput } from "@skein/domain/provider";
import type { LeaseKeeper } from "@skein/db";
import { type ActiveTurn, ActiveTurns } from "./active-turns.ts";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { CheckpointService } from "./checkpoint-service.ts";
import { fenceAppends, LeaseLostError, type RunAppender, untilAborted } from "./lease-fence.ts";
import type { Logger } from "./logger.ts";
import { prepareStart } from "./prepare-start.ts";
import { interruptOrphanedRun } from "./recovery.ts";
import type { SessionManager } from "./session-manager.ts";
import { LiveRequests, type RequestAnswer } from "./live-requests.ts";
import { TurnConsumer } from "./turn-consumer.ts";

export type ToolFactory = (
  threadId: ThreadId,
  runId: RunId,
) => {
  tools: NonNullable<ThreadSettings["tools"]>;
  handler: AppToolHandler;
} | null;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Drives queued runs: one runner per thread executes its runs in order, each through lazy
 * context resolution, one provider turn per attempt, and the runtime events of that turn.
 */
export class RunExecutor {
  private readonly runners = new Map<ThreadId, Promise<void>>();
  private readonly turns: ActiveTurns;
  private readonly settled = new Map<RunId, Array<() => void>>();
  /** Threads whose lease another instance held when we tried to dispatch them. */
  private readonly deferred = new Set<ThreadId>();
  /** Threads whose lease another instance took over while we ran them (see `leaseLost`). */
  private readonly lost = new Set<ThreadId>();
  private stopping = false;
  private readonly requests: LiveRequests;

  constructor(
    private readonly repo: AggregateRepository,
    private readonly sessions: SessionManager,
    private readonly ids: IdSource,
    private readonly log: Logger,
    private readonly toolsFor: ToolFactory,
    private readonly checkpoints: CheckpointService,
    private readonly leases: LeaseKeeper,
  ) {
    this.requests = new LiveRequests(repo, sessions);
    this.turns = new ActiveTurns(repo, ids, log);
  }

  /** Starts (or keeps) the thread's runner; it drains queued runs one at a time. */
  kick(threadId: ThreadId): void {
    if (this.stopping || this.runners.has(threadId)) return;
    const runner = this.drain(threadId)
      .catch((error) => this.log.error({ threadId, error: message(error) }, "run loop failed"))
      .finally(() => {
        this.runners.delete(threadId);
      });
    this.runners.set(threadId, runner);
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
      if (previous && previous.owner !== this.leases.owner && previous.expired) {
        const state = await this.repo.refreshThread(threadId);
        if (state.activeRunId) {
          const why = `Skein instance ${previous.owner} stopped renewing its lease`;
          await interruptOrphanedRun(this.repo, threadId, state.activeRunId, why, this.log);
        }
      }
      await this.drainHeld(threadId);
    } finally {
      await this.leases.release(threadId).catch((error: unknown) => {
        this.log.warn({ threadId, error: message(error) }, "runtime lease could not be released");
      });
    }
  }

  private async drainHeld(threadId: ThreadId): Promise<void> {
    for (let refreshed = false; ; ) {
      if (!this.leases.holds(threadId)) return;
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
      try {
        await this.execute(threadId, run);
      } catch (error) {
        if (error instanceof LeaseLostError || this.lost.has(threadId)) {
          this.log.warn({ threadId, runId: run.id }, "run abandoned: its lease was taken over");
          return;
        }
        this.log.error({ threadId, runId: run.id, error: message(error) }, "run failed to execute");
        await this.failRun(threadId, run.id, message(error));
      } finally {
        this.turns.end(threadId);
        for (const resolve of this.settled.get(run.id) ?? []) resolve();
        this.settled.delete(run.id);
      }
      if (this.stopping || this.lost.has(threadId)) return;
      const after = (await this.repo.thread(threadId)).runs.get(run.id);
      if (after?.status === "queued") {
        // Nothing moved the run (even failing it was refused): retrying would spin forever.
        this.log.error(
          { threadId, runId: run.id },
          "queued run could not be dispatched; runner stops",
        );
        return;
      }
    }
  }

  private async failRun(threadId: ThreadId, runId: RunId, error: string): Promise<void> {
    try {
      await this.appender(threadId).execute({ type: "FailRun", data: { threadId, runId, error } });
    } catch (cause) {
      this.log.warn({ threadId, runId, error: message(cause) }, "run could not be marked failed");
    }
  }

  private async execute(threadId: ThreadId, run: Run): Promise<void> {
    const state = await this.repo.thread(threadId);
    const thread = state.thread!;
    const text = state.messages.get(run.userMessageId)?.text ?? "";
    const project = await this.repo.project(thread.projectId);
    const cwd = thread.worktreePath ?? project.project?.workspaceRoot ?? process.cwd();
    const appTools = this.toolsFor(threadId, run.id);
    const settings: ThreadSettings = {
      cwd,
      model: run.model ?? null,
      runtimeMode: thread.runtimeMode,
      ...(appTools ? { tools: appTools.tools } : {}),
    };
    const prepared = await prepareStart(
      { repo: this.repo, sessions: this.sessions, ids: this.ids },
      threadId,
      run,
      text,
      settings,
    );
    if ("failed" in prepared) {
      await this.failRun(threadId, run.id, prepared.failed);
      return;
    }
    const { session, nativeThreadRef } = prepared;
    const appends = this.appender(threadId);
    await appends.execute({
      type: "StartRun",
      data: {
        threadId,
        runId: run.id,
        attemptId: this.ids.next("attempt"),
        rootNodeId: this.ids.next("node"),
        providerThreadId: prepared.providerThreadId,
        ...(prepared.handoff ? { contextHandoffId: prepared.handoff.handoffId } : {}),
      },
    });
    if (prepared.transferId) {
      await appends.execute({
        type: "ConsumeContextTransfer",
        data: { threadId, transferId: prepared.transferId, runId: run.id },
      });
    }
    const active = this.turns.begin(threadId, run.id, session, nativeThreadRef);
    let input: TurnInput = {
      text,
      context: prepared.handoff
        ? { handoffId: prepared.handoff.handoffId, text: prepared.handoff.text }
        : null,
    };
    for (;;) {
      await this.runTurn(threadId, run.id, active, input, settings, appTools?.handler);
      if (active.restartWith === null || this.stopping) break;
      input = { text: active.restartWith, context: null };
      active.restartWith = null;
    }
    if (this.lost.has(threadId)) throw new LeaseLostError(threadId);
    const ended = (await this.repo.thread(threadId)).runs.get(run.id);
    if (ended) await this.checkpoints.captureRun(threadId, ended, cwd);
  }

  private async runTurn(
    threadId: ThreadId,
    runId: RunId,
    active: ActiveTurn,
    input: TurnInput,
    settings: ThreadSettings,
    onAppToolCall: AppToolHandler | undefined,
  ): Promise<void> {
    const { session } = active;
    const providerTurnId = this.ids.next("providerTurn");
    this.sessions.begin(session);
    try {
      const turn = session.handle.startTurn(active.nativeThreadRef, input, {
        settings,
        ...(onAppToolCall ? { onAppToolCall } : {}),
      });
      const { nativeTurnRef } = await turn.started;
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
      const consumer = new TurnConsumer(
        appends,
        this.ids,
        threadId,
        providerTurnId,
        session.providerSessionId,
        (requestId, live) => {
          if (live) this.requests.remember(requestId, live);
        },
      );
      await consumer.consume(untilAborted(turn.events, active.abandon.signal, threadId));
    } finally {
      // The lease may be lost before the turn started natively, or found lost by the fence
      // before the renewal timer reports it: either way the native turn must stop.
      if (this.lost.has(threadId) && active.started) await this.turns.interruptForLoss(active);
      this.sessions.end(session);
      active.started = false;
    }
  }

  /** Appends for a thread's runs, fenced by its lease (see lease-fence.ts). */
  private appender(threadId: ThreadId): RunAppender {
    return fenceAppends(this.repo, this.leases, threadId, this.lost);
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

  interrupt(threadId: ThreadId): Promise<number> {
    return this.turns.interrupt(threadId);
  }

  steer(threadId: ThreadId, text: string): Promise<number> {
    return this.turns.steer(threadId, text);
  }

  /** Answers a request this instance's runtime asked (see live-requests.ts). */
  respond(requestId: RuntimeRequestId, threadId: ThreadId, answer: RequestAnswer): Promise<number> {
    return this.requests.respond(requestId, threadId, answer);
  }

  /** Stops starting new runs and interrupts running turns. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.turns.interruptAll();
    await Promise.race([
      Promise.allSettled([...this.runners.values()]),
      new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
    ]);
  }
}
