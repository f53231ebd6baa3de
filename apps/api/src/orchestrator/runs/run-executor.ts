import { setTimeout as sleep } from "node:timers/promises";
import type { IdSource, RunId, RuntimeRequestId, ThreadId } from "@skein/domain";
import { type AttemptPolicy, DEFAULT_ATTEMPT_POLICY } from "@skein/domain/run-life";
import type { LeaseKeeper } from "@skein/db";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { AggregateRepository, ExecuteOptions } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import { ActiveTurns } from "../runtime/active-turns.ts";
import { LiveRequests, type RequestAnswer } from "../runtime/live-requests.ts";
import type { SessionManager } from "../runtime/session-manager.ts";
import { SubagentRegistry } from "../runtime/subagent-registry.ts";
import { message, type RunnerContext, threadScope, type ToolFactory } from "./runner-context.ts";
import { DEFAULT_START_BREAKER, StartBreaker, type StartBreakerOptions } from "./start-breaker.ts";
import { drainThread } from "./thread-runner.ts";
import type { WorktreeSetups } from "../workspaces/worktree-setup.ts";
import type { HandoffsBeforeStart } from "../transfers/default-writer.ts";
import type { SkeinCompaction } from "../transfers/skein-compaction.ts";

export type { ToolFactory } from "./runner-context.ts";

/** Waits for `work`, but no longer than `ms` (its failure is the caller's log's business). */
function within(ms: number, work: Promise<unknown>): Promise<unknown> {
  return Promise.race([work.catch(() => undefined), sleep(ms, undefined, { ref: false })]);
}

/**
 * Drives queued runs: one runner per thread (thread-runner.ts) executes its runs in order, each
 * through the run-start and run-life workflows. This is what reaches those runners from outside:
 * kicks, interrupts, steering, answers to requests, a lost lease, shutdown.
 */
export class RunExecutor {
  private readonly runners = new Map<ThreadId, Promise<void>>();
  /** Threads kicked while their runner was running: it drains once more when it ends. */
  private readonly rekick = new Set<ThreadId>();
  private readonly settled = new Map<RunId, Array<() => void>>();
  private readonly ctx: RunnerContext;

  constructor(
    repo: AggregateRepository,
    sessions: SessionManager,
    ids: IdSource,
    log: Logger,
    toolsFor: ToolFactory,
    checkpoints: CheckpointService,
    leases: LeaseKeeper,
    breaker: StartBreakerOptions = DEFAULT_START_BREAKER,
    attempts: AttemptPolicy = DEFAULT_ATTEMPT_POLICY,
  ) {
    this.ctx = {
      repo,
      sessions,
      ids,
      log,
      toolsFor,
      checkpoints,
      leases,
      attempts,
      breaker: new StartBreaker(breaker),
      turns: new ActiveTurns(repo, ids, log),
      requests: new LiveRequests(repo, sessions),
      subagents: new SubagentRegistry(),
      attachments: null,
      workspaceSetups: null,
      threadPort: null,
      handoffsBeforeStart: null,
      skeinCompaction: null,
      usageLimitHeld: null,
      deferred: new Set(),
      lost: new Set(),
      unfinishedTakeovers: new Map(),
      stopping: false,
      stopped: new AbortController(),
      leaseLost: (threadId) => this.leaseLost(threadId),
      settle: (runId) => this.settle(runId),
    };
  }

  /** T9: child threads following native sub-agents (see subagent-threads.ts). */
  get subagents(): SubagentRegistry {
    return this.ctx.subagents;
  }

  /** Where uploaded attachments are stored (E16); set by the orchestrator. */
  set attachments(store: AttachmentStore | null) {
    this.ctx.attachments = store;
  }

  /** Issue 26: worktree setups a thread's runs wait for; set by the orchestrator. */
  set workspaceSetups(setups: WorktreeSetups | null) {
    this.ctx.workspaceSetups = setups;
  }

  /** Issue 26: gives a thread without a PORT one before its run starts; set by the orchestrator. */
  set threadPort(port: ((threadId: ThreadId) => Promise<number | null>) | null) {
    this.ctx.threadPort = port;
  }

  /** Issue 25: a provider-written handoff before a start, as the project says; set by the orchestrator. */
  set handoffsBeforeStart(before: HandoffsBeforeStart | null) {
    this.ctx.handoffsBeforeStart = before;
  }

  /** Issue 25 item 5: compactions Skein writes itself; set by the orchestrator. */
  set skeinCompaction(compaction: SkeinCompaction | null) {
    this.ctx.skeinCompaction = compaction;
  }

  /** Issue 32: told of each thread whose queue a usage limit holds; set by the orchestrator. */
  set usageLimitHeld(held: ((threadId: ThreadId) => void) | null) {
    this.ctx.usageLimitHeld = held;
  }

  /** Starts (or keeps) the thread's runner; it drains queued runs one at a time. */
  kick(threadId: ThreadId): void {
    if (this.ctx.stopping) return;
    if (this.runners.has(threadId)) {
      // The runner may already have looked at the queue and be letting its lease go: it looks
      // once more when it ends, or a run queued just now would wait for nobody.
      this.rekick.add(threadId);
      return;
    }
    const runner = (async () => {
      for (;;) {
        await drainThread(this.ctx, threadId).catch((error) =>
          this.ctx.log.error({ threadId, error: message(error) }, "run loop failed"),
        );
        // Kicked while it ran: one more drain, with the lease taken again. The check and the
        // runner's removal happen in one step, so no kick falls between them.
        if (this.ctx.stopping || !this.rekick.delete(threadId)) break;
      }
      this.runners.delete(threadId);
    })();
    this.runners.set(threadId, runner);
  }

  /**
   * A person asked to retry the thread's latest run (E4): it gets a real try even when the
   * breaker held the thread's runs back, since the person may have fixed the cause.
   */
  retried(threadId: ThreadId): void {
    this.ctx.breaker.succeeded(threadId);
    this.kick(threadId);
  }

  /** Tries again the threads another instance's lease kept us from dispatching. */
  retryDeferred(): void {
    const threads = [...this.ctx.deferred];
    this.ctx.deferred.clear();
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

  private settle(runId: RunId): void {
    for (const resolve of this.settled.get(runId) ?? []) resolve();
    this.settled.delete(runId);
  }

  /**
   * The thread's lease expired and another instance took it over (and ends the run
   * `interrupted`): stop the turn here, forget its requests, and append nothing more for it.
   */
  leaseLost(threadId: ThreadId): void {
    this.ctx.lost.add(threadId);
    this.ctx.requests.forgetThread(threadId);
    this.ctx.turns.abandon(threadId);
  }

  async interrupt(threadId: ThreadId, answer?: ExecuteOptions): Promise<number> {
    // Recorded before the parent's native interrupt, which ends the sub-agents' turns too.
    await this.interruptChildren(threadId);
    const sequence = await this.ctx.turns.interrupt(threadId, answer);
    // A child thread following a native sub-agent has no turn of its own here: its parent's
    // runtime stops it (T9); its run ends when the provider reports the sub-agent's turn ended.
    const child = this.ctx.subagents.runningTurn(threadId);
    if (child) {
      await child.interrupt().catch((error: unknown) => {
        this.ctx.log.warn({ threadId, error: message(error) }, "sub-agent interrupt not delivered");
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
    const { subagents, repo, log } = this.ctx;
    for (const childId of subagents.delegatedUnder(parentThreadId)) {
      await this.stopChild(childId).catch((error: unknown) => {
        log.warn({ threadId: childId, error: message(error) }, "delegated run not stopped");
      });
    }
    const { appends } = threadScope(this.ctx, parentThreadId);
    for (const childId of subagents.runningUnder(parentThreadId)) {
      const runId = (await repo.thread(childId)).activeRunId;
      if (!runId) continue;
      await appends
        .execute({ type: "InterruptRun", data: { threadId: childId, runId } })
        .catch((error: unknown) => {
          log.warn({ threadId: childId, error: message(error) }, "sub-agent run not interrupted");
        });
    }
  }

  /**
   * Stops a delegated child thread's current work: its active run is interrupted (and so its own
   * children), a run still queued is cancelled.
   */
  async stopChild(childId: ThreadId): Promise<void> {
    const state = await this.ctx.repo.thread(childId);
    if (state.activeRunId) {
      await this.interrupt(childId);
      return;
    }
    for (const runId of state.queuedRunIds) {
      await this.ctx.repo.execute({ type: "CancelQueuedRun", data: { threadId: childId, runId } });
      this.settle(runId);
    }
  }

  steer(threadId: ThreadId, text: string, answer?: ExecuteOptions): Promise<number> {
    return this.ctx.turns.steer(threadId, text, answer);
  }

  /** Answers a request this instance's runtime asked (see live-requests.ts). */
  respond(
    requestId: RuntimeRequestId,
    threadId: ThreadId,
    answer: RequestAnswer,
    receipt?: ExecuteOptions,
  ): Promise<number> {
    return this.ctx.requests.respond(requestId, threadId, answer, receipt);
  }

  /** Stops starting new runs and interrupts running turns. */
  async stop(): Promise<void> {
    this.ctx.stopping = true;
    this.ctx.stopped.abort();
    // A runtime that ignores the interrupt (or never answers) cannot hold the shutdown up.
    await within(3_000, this.ctx.turns.interruptAll());
    await within(5_000, Promise.allSettled([...this.runners.values()]));
  }
}
