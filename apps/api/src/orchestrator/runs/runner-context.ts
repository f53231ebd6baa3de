import { setTimeout as sleep } from "node:timers/promises";
import {
  type Command,
  type IdSource,
  isDomainError,
  type ProviderSessionId,
  type RunId,
  type ThreadId,
} from "@skein/domain";
import type { AppToolHandler, ThreadSettings } from "@skein/domain/provider";
import type { AttemptPolicy } from "@skein/domain/run-life";
import { isStoreFault, type LeaseKeeper, LeaseFenceError } from "@skein/db";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import { LeaseLostError, type RunAppender } from "../recovery/lease-fence.ts";
import type { ActiveTurns } from "../runtime/active-turns.ts";
import type { LiveRequests } from "../runtime/live-requests.ts";
import type { SessionManager } from "../runtime/session-manager.ts";
import type { SubagentRegistry } from "../runtime/subagent-registry.ts";
import type { StartBreaker } from "./start-breaker.ts";
import type { WorktreeSetups } from "../workspaces/worktree-setup.ts";
import type { HandoffsBeforeStart } from "../transfers/default-writer.ts";
import type { SkeinCompaction } from "../transfers/skein-compaction.ts";

export type ToolFactory = (
  threadId: ThreadId,
  runId: RunId,
) => {
  tools: NonNullable<ThreadSettings["tools"]>;
  handler: AppToolHandler;
} | null;

/** What every thread's runner of this instance shares: its services and its runners' state. */
export type RunnerContext = {
  readonly repo: AggregateRepository;
  readonly sessions: SessionManager;
  readonly ids: IdSource;
  readonly log: Logger;
  readonly toolsFor: ToolFactory;
  readonly checkpoints: CheckpointService;
  readonly leases: LeaseKeeper;
  readonly attempts: AttemptPolicy;
  readonly breaker: StartBreaker;
  readonly turns: ActiveTurns;
  readonly requests: LiveRequests;
  /** T9: child threads following native sub-agents (see subagent-threads.ts). */
  readonly subagents: SubagentRegistry;
  /** Where uploaded attachments are stored (E16); set by the orchestrator. */
  attachments: AttachmentStore | null;
  /** Issue 26: worktree setups a thread's runs wait for; set by the orchestrator. */
  workspaceSetups: WorktreeSetups | null;
  /** Issue 26: the thread's PORT, given one first if it has none (thread-ports.ts). */
  threadPort: ((threadId: ThreadId) => Promise<number | null>) | null;
  /** Issue 25: the project's default handoff writer, before a start (default-writer.ts). */
  handoffsBeforeStart: HandoffsBeforeStart | null;
  /** Issue 25 item 5: Skein writes the compaction a provider cannot do natively. */
  skeinCompaction: SkeinCompaction | null;
  /** Issue 32: a thread's queue is held by a usage limit (the waits plan its resume). */
  usageLimitHeld: ((threadId: ThreadId) => void) | null;
  /** Threads whose lease another instance held when we tried to dispatch them. */
  readonly deferred: Set<ThreadId>;
  /** Threads whose lease another instance took over while we ran them (see `leaseLost`). */
  readonly lost: Set<ThreadId>;
  /**
   * Threads taken over from a dead instance whose orphaned run could not be ended yet (the append
   * failed), by that instance: the lease is given up meanwhile, so the next try cannot tell from
   * it any more, and the sweep tries again (`deferred`) instead of leaving the run "running".
   */
  readonly unfinishedTakeovers: Map<ThreadId, { deadOwner: string; tries: number }>;
  stopping: boolean;
  /** Aborts the pauses between failed starts and attempts when the server stops. */
  readonly stopped: AbortController;
  /** The lease of a thread was found lost (by the fence or the renewal timer). */
  readonly leaseLost: (threadId: ThreadId) => void;
  /** The run reached a terminal state in this process: its waiters resume. */
  readonly settle: (runId: RunId) => void;
};

/** How long a run's failure is retried while the store is unavailable (issue 35). */
const STORE_RETRY_MS = 120_000;

export type FailRunCommand = Extract<Command, { type: "FailRun" }>;

/**
 * One thread's part of the context, made once per drain: its lease-fenced appends, whether its
 * work must stop (the server stops, or the lease went to another instance), its pauses and the
 * one way its runs' failures are recorded, wherever on the run's way they are decided.
 */
export type ThreadScope = {
  readonly ctx: RunnerContext;
  readonly threadId: ThreadId;
  /** Appends for the thread's runs, fenced by its lease (see `threadScope`). */
  readonly appends: RunAppender;
  readonly lost: () => boolean;
  readonly halted: () => boolean;
  /** Waits `ms`, or less when the server stops (a backoff, a retry's delay). */
  readonly pause: (ms: number) => Promise<void>;
  /** Fails a run once; a refusal (the lease is gone, the run ended meanwhile) is only logged. */
  readonly fail: (command: FailRunCommand) => Promise<void>;
  /**
   * Fails a run, trying again while the store is unavailable (bounded by STORE_RETRY_MS): a
   * run whose end was never recorded would keep its thread's queue waiting for nobody.
   */
  readonly failDurably: (runId: RunId, error: string) => Promise<void>;
  /**
   * B2: the run's provider thread now lives on `providerSessionId` (a runtime that replaced a
   * dead one and resumed the thread), recorded as the thread's own fenced append.
   */
  readonly movedToSession: (runId: RunId, providerSessionId: ProviderSessionId) => Promise<void>;
};

export function threadScope(ctx: RunnerContext, threadId: ThreadId): ThreadScope {
  const lost = () => ctx.lost.has(threadId);
  const halted = () => ctx.stopping || lost();
  // Every append of the thread's runs names its lease and this instance, and the store appends
  // it only while the lease still names this instance, in the append's own transaction: once
  // another instance took the thread over, nothing of this run gets in, however fast its turn
  // streams. The first refusal marks the lease lost here, which stops the turn.
  const fence = { lease: threadId, owner: ctx.leases.owner };
  const refused = (error: unknown): never => {
    if (!(error instanceof LeaseFenceError)) throw error;
    ctx.leaseLost(threadId);
    throw new LeaseLostError(threadId);
  };
  const appends: RunAppender = {
    async execute(command, options) {
      if (lost()) throw new LeaseLostError(threadId);
      return ctx.repo.execute(command, { ...options, fence }).catch(refused);
    },
    async executeBatch(commands, options) {
      if (lost()) throw new LeaseLostError(threadId);
      return ctx.repo.executeBatch(commands, { ...options, fence }).catch(refused);
    },
  };
  const pause = async (ms: number) => {
    if (ms <= 0) return;
    await sleep(ms, undefined, { signal: ctx.stopped.signal }).catch(() => undefined);
  };
  const unrecorded = (runId: RunId, cause: unknown) =>
    ctx.log.warn({ threadId, runId, error: message(cause) }, "run could not be marked failed");
  return {
    ctx,
    threadId,
    appends,
    lost,
    halted,
    pause,
    fail: async (command) => {
      await appends.execute(command).catch((cause) => unrecorded(command.data.runId, cause));
    },
    movedToSession: async (runId, providerSessionId) => {
      const providerThreadId = (await ctx.repo.thread(threadId)).runs.get(runId)?.providerThreadId;
      if (!providerThreadId) return;
      await appends.execute({
        type: "UpdateProviderThread",
        data: { threadId, providerThreadId, providerSessionId },
      });
    },
    failDurably: async (runId, error) => {
      const deadline = Date.now() + STORE_RETRY_MS;
      for (let attempt = 0; ; attempt += 1) {
        try {
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
          if (!isStoreFault(cause) || halted() || Date.now() > deadline) {
            unrecorded(runId, cause);
            return;
          }
          await pause(Math.min(250 * 2 ** attempt, 5_000));
        }
      }
    },
  };
}

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
