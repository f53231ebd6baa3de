import { setTimeout as sleep } from "node:timers/promises";
import type { IdSource, RunId, ThreadId } from "@skein/domain";
import type { AppToolHandler, ThreadSettings } from "@skein/domain/provider";
import type { AttemptPolicy } from "@skein/domain/run-life";
import type { LeaseKeeper } from "@skein/db";
import type { AttachmentStore } from "../../attachments/attachment-store.ts";
import type { CheckpointService } from "../checkpoints/checkpoint-service.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";
import { fenceAppends, type RunAppender } from "../recovery/lease-fence.ts";
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

/**
 * One thread's part of the context, made once per runner: its lease-fenced appends and whether
 * its work must stop (the server stops, or the lease went to another instance).
 */
export type ThreadScope = {
  readonly ctx: RunnerContext;
  readonly threadId: ThreadId;
  /** Appends for the thread's runs, fenced by its lease (see lease-fence.ts). */
  readonly appends: RunAppender;
  readonly lost: () => boolean;
  readonly halted: () => boolean;
};

export function threadScope(ctx: RunnerContext, threadId: ThreadId): ThreadScope {
  const lost = () => ctx.lost.has(threadId);
  return {
    ctx,
    threadId,
    appends: fenceAppends(ctx.repo, ctx.leases, threadId, {
      has: (id) => ctx.lost.has(id),
      add: (id) => ctx.leaseLost(id),
    }),
    lost,
    halted: () => ctx.stopping || lost(),
  };
}

/** Waits `ms`, or less when the server stops. */
export async function pause(ctx: RunnerContext, ms: number): Promise<void> {
  if (ms <= 0) return;
  await sleep(ms, undefined, { signal: ctx.stopped.signal }).catch(() => undefined);
}

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
