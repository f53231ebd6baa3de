import type { CheckpointStatus } from "./entities/checkpoint.ts";
import type { ContextHandoffStatus } from "./entities/context-handoff.ts";
import type { ContextTransferStatus } from "./entities/context-transfer.ts";
import type { ExecutionNodeStatus } from "./entities/execution-node.ts";
import type { PlanStatus } from "./entities/plan-artifact.ts";
import type { ProviderSessionStatus } from "./entities/provider-session.ts";
import type { ProviderThreadStatus } from "./entities/provider-thread.ts";
import type { ProviderTurnStatus } from "./entities/provider-turn.ts";
import type { RunStatus } from "./entities/run.ts";
import type { RunAttemptStatus } from "./entities/run-attempt.ts";
import type { RuntimeRequestStatus } from "./entities/runtime-request.ts";
import { InvalidTransitionError } from "./errors.ts";

type Table<S extends string> = { readonly [K in S]: readonly S[] };

/** Allowed status changes per entity. Anything not listed — including X → X — is rejected. */
export const TRANSITIONS = {
  Run: {
    // queued → failed: the run is refused before any provider work (T5 unsupported, provider
    // not configured), so it never starts.
    queued: ["starting", "cancelled", "failed"],
    starting: ["running", "interrupted", "failed"],
    running: ["waiting", "completed", "interrupted", "failed"],
    // A turn may end while a request is still open; the open request is then cancelled.
    waiting: ["running", "completed", "interrupted", "failed"],
    completed: ["rolled_back"],
    // → queued: RetryRun, only for the thread's latest run (checked by the decider).
    interrupted: ["rolled_back", "queued"],
    failed: ["rolled_back", "queued"],
    cancelled: [],
    rolled_back: [],
  } satisfies Table<RunStatus>,
  RunAttempt: {
    pending: ["running", "interrupted", "failed", "cancelled", "superseded"],
    running: ["completed", "interrupted", "failed", "superseded"],
    completed: [],
    interrupted: [],
    failed: [],
    cancelled: [],
    superseded: [],
  } satisfies Table<RunAttemptStatus>,
  ExecutionNode: {
    pending: ["running", "waiting", "completed", "interrupted", "failed", "cancelled"],
    running: ["waiting", "completed", "interrupted", "failed", "cancelled"],
    waiting: ["running", "completed", "interrupted", "failed", "cancelled"],
    completed: ["rolled_back"],
    interrupted: ["rolled_back"],
    failed: ["rolled_back"],
    cancelled: [],
    rolled_back: [],
  } satisfies Table<ExecutionNodeStatus>,
  ContextTransfer: {
    pending: ["resolved_native", "resolved_portable", "failed", "superseded"],
    // resolved_native → resolved_portable exists only as the recorded fallback when the native
    // fork fails (FallbackToPortable); ResolveContextTransfer refuses it.
    resolved_native: ["resolved_portable", "consumed", "failed", "superseded"],
    resolved_portable: ["consumed", "failed", "superseded"],
    failed: [],
    consumed: [],
    superseded: [],
  } satisfies Table<ContextTransferStatus>,
  ContextHandoff: {
    pending: ["ready", "failed", "superseded"],
    ready: ["superseded"],
    failed: ["superseded"],
    superseded: [],
  } satisfies Table<ContextHandoffStatus>,
  ProviderSession: {
    starting: ["ready", "stopped", "error"],
    ready: ["running", "waiting", "stopped", "error"],
    running: ["ready", "waiting", "stopped", "error"],
    waiting: ["ready", "running", "stopped", "error"],
    stopped: ["starting"],
    error: ["starting", "stopped"],
  } satisfies Table<ProviderSessionStatus>,
  ProviderThread: {
    not_loaded: ["idle", "active", "archived", "closed", "error"],
    idle: ["not_loaded", "active", "archived", "closed", "error"],
    // active → not_loaded: the runtime handle vanished (restart, reap, crash; R2).
    active: ["idle", "not_loaded", "closed", "error"],
    archived: ["not_loaded", "idle", "closed"],
    closed: [],
    error: ["not_loaded", "idle", "closed"],
  } satisfies Table<ProviderThreadStatus>,
  ProviderTurn: {
    pending: ["running", "interrupted", "failed", "cancelled"],
    running: ["completed", "interrupted", "failed", "cancelled"],
    completed: [],
    interrupted: [],
    failed: [],
    cancelled: [],
  } satisfies Table<ProviderTurnStatus>,
  RuntimeRequest: {
    pending: ["resolved", "expired", "cancelled"],
    resolved: [],
    expired: [],
    cancelled: [],
  } satisfies Table<RuntimeRequestStatus>,
  Checkpoint: {
    ready: ["missing", "error", "stale"],
    // A checkpoint left behind by a rollback can still disappear from disk.
    stale: ["missing"],
    missing: [],
    error: [],
  } satisfies Table<CheckpointStatus>,
  PlanArtifact: {
    draft: ["active", "completed", "superseded"],
    active: ["accepted", "completed", "superseded"],
    // An accepted plan is settled: it is what a run was asked to implement.
    accepted: [],
    completed: ["superseded"],
    superseded: [],
  } satisfies Table<PlanStatus>,
} as const;

export type TransitionEntity = keyof typeof TRANSITIONS;
export type StatusOf<E extends TransitionEntity> = keyof (typeof TRANSITIONS)[E] & string;

export function canTransition<E extends TransitionEntity>(
  entity: E,
  from: StatusOf<E>,
  to: StatusOf<E>,
): boolean {
  const table: Record<string, readonly string[]> = TRANSITIONS[entity];
  return table[from]?.includes(to) ?? false;
}

/** The typed error for a disallowed change, or null when the table allows it. */
export function checkTransition<E extends TransitionEntity>(
  entity: E,
  from: StatusOf<E>,
  to: StatusOf<E>,
  entityId: string | null = null,
): InvalidTransitionError | null {
  return canTransition(entity, from, to)
    ? null
    : new InvalidTransitionError(entity, from, to, entityId);
}

/** Throws InvalidTransitionError; `decide` turns it into `{ ok: false, error }`. */
export function assertTransition<E extends TransitionEntity>(
  entity: E,
  from: StatusOf<E>,
  to: StatusOf<E>,
  entityId: string | null = null,
): void {
  const error = checkTransition(entity, from, to, entityId);
  if (error) throw error;
}
