import {
  type CheckpointId,
  ConflictError,
  type IdSource,
  type ProviderThread,
  type RollbackScope,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { NativeTurnRecord } from "@skein/domain/provider";
import type { EventStore } from "@skein/db";
import type { RollbackResult } from "@skein/contract";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "./checkpoint-service.ts";
import type { CommandContext } from "../commands/command-gate.ts";
import type { Logger } from "../logger.ts";
import type { SessionManager } from "../runtime/session-manager.ts";
import {
  CheckpointGoneError,
  includesConversation,
  planRollback,
  type RollbackPlan,
  refuseConflicts,
  workspaceOf,
} from "./rollback-plan.ts";
import { keepSafetyCheckpoint } from "./safety-checkpoint.ts";
import { runtimeEnvOf } from "../workspaces/worktree-setup.ts";

type Deps = {
  store: EventStore;
  repo: AggregateRepository;
  sessions: SessionManager;
  checkpoints: CheckpointService;
  ids: IdSource;
  clock: () => Date;
  log: Logger;
};

export type RollbackRequest = {
  threadId: ThreadId;
  checkpointId: CheckpointId;
  scope?: RollbackScope;
  force?: boolean;
};

/** What a rollback decided before its first effect; a resumed command finishes the same one. */
type Decision = {
  checkpointId: CheckpointId;
  ref: string;
  scope: RollbackScope;
  safetyCheckpointId: CheckpointId | null;
};

const IN_FLIGHT = ["starting", "running", "waiting"];
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Rolls a thread back to a checkpoint: the domain validates first (nothing on disk moves for a
 * refused rollback). B14: the code part restores only the paths the rolled-back runs changed,
 * leaving the person's own files alone; a path the person changed since the agent last wrote it
 * refuses the rollback (CONFLICT, naming it) unless `force`, which first keeps the workspace as a
 * safety checkpoint (rolling back to it puts those files back). The conversation part makes each
 * provider thread drop the later runs' turns natively where it can (else it is closed, so the next
 * run gets a portable handoff), and the later runs become `rolled_back`, still forkable.
 *
 * B3: the caller (the command gate) has already answered a replay from its receipt, so this runs
 * once per command id. The decision is recorded before the first file moves; a crash between the
 * effects and the append leaves it, and the command is finished on restart (a path already back
 * at the checkpoint is neither restored again nor a conflict).
 */
export async function rollbackToCheckpoint(
  deps: Deps,
  request: RollbackRequest,
  command: CommandContext,
): Promise<RollbackResult> {
  const { threadId, checkpointId } = request;
  const recorded = await command.recorded<Decision>();
  const scope = recorded?.scope ?? request.scope ?? "both";
  let plan: RollbackPlan;
  try {
    plan = await planRollback(deps, threadId, checkpointId, scope);
  } catch (error) {
    if (error instanceof CheckpointGoneError) {
      await deps.repo.execute({ type: "MarkCheckpointMissing", data: { threadId, checkpointId } });
    }
    throw error;
  }
  const code = plan.code;
  if (code) await refuseIfWorkspaceBusy(deps, threadId, plan.cwd);
  // A resumed command already decided to force: its own half-done restore is no conflict.
  if (!request.force && !recorded?.safetyCheckpointId) refuseConflicts(plan);
  const changes = code?.plan.files ?? [];
  const decision = await command.intend<Decision>({
    checkpointId,
    ref: plan.checkpoint.ref,
    scope,
    safetyCheckpointId:
      request.force && changes.length > 0 ? (deps.ids.next("checkpoint") as CheckpointId) : null,
  });
  if (code && decision.safetyCheckpointId) {
    await keepSafetyCheckpoint(deps, {
      state: plan.state,
      store: code.store,
      plan: code.plan,
      checkpointId: decision.safetyCheckpointId,
      anchor: plan.checkpoint,
      cwd: plan.cwd,
    });
  }
  if (code && changes.length > 0) await code.store.restoreTree(code.plan.result, code.plan.current);
  if (code && code.store.mode === "repo" && plan.rolledBackRunIds.length > 0) {
    // A bring-back with code "merge" moved the branch: runs rolled back take their merge
    // commits back off it too (only while they sit at its tip; a branch moved on is the user's).
    await code.store.undoBranchMerges(new Set<string>(plan.rolledBackRunIds));
  }
  if (includesConversation(scope, plan.checkpoint, plan.state)) {
    const keep =
      plan.checkpoint.appRunOrdinal ?? plan.state.runs.get(plan.checkpoint.runId!)?.ordinal ?? 0;
    for (const pt of plan.state.providerThreads.values()) {
      await rollbackProviderThread(deps, plan.state, pt, keep, plan.cwd);
    }
  }
  const files = changes.map((f) => ({
    path: f.path,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
  }));
  const answer = { files, safetyCheckpointId: decision.safetyCheckpointId };
  const result = await deps.repo.execute(
    { type: "RollbackThread", data: { threadId, checkpointId, scope, files } },
    command.answer(answer),
  );
  return { sequence: result.sequence, ...answer };
}

async function refuseIfWorkspaceBusy(deps: Deps, threadId: ThreadId, cwd: string): Promise<void> {
  const { data: active } = await deps.store.snapshot((q) => q.list("runs", { status: IN_FLIGHT }));
  for (const row of active) {
    if (!row.threadId || row.threadId === threadId) continue;
    const other = await deps.repo.thread(row.threadId as ThreadId);
    if (other.thread && (await workspaceOf(deps.repo, other)) === cwd) {
      throw new ConflictError(
        `thread ${row.threadId} has a run active in the same workspace; roll back when it has finished`,
      );
    }
  }
}

/** Provider turns per app run ordinal, in native order, for one provider thread. */
function turnsOf(state: ThreadState, pt: ProviderThread) {
  return [...state.providerTurns.values()]
    .filter((t) => t.providerThreadId === pt.id)
    .sort((a, b) => a.ordinal - b.ordinal)
    .map((t) => {
      const attempt = t.runAttemptId ? state.attempts.get(t.runAttemptId) : undefined;
      const run = attempt ? state.runs.get(attempt.runId) : undefined;
      return { turn: t, runOrdinal: run?.ordinal ?? 0 };
    });
}

async function rollbackProviderThread(
  deps: Deps,
  state: ThreadState,
  pt: ProviderThread,
  keep: number,
  cwd: string,
) {
  const threadId = state.thread!.id;
  const turns = turnsOf(state, pt);
  if (!turns.some((t) => t.runOrdinal > keep) || !pt.nativeThreadRef) return;
  const history: NativeTurnRecord[] = turns.map(({ turn }) => ({
    nativeTurnRef: turn.nativeTurnRef,
    ordinal: turn.ordinal,
    status: turn.status,
  }));
  const kept = turns.filter((t) => t.runOrdinal <= keep).at(-1);
  const boundary = kept
    ? { turn: history.find((h) => h.ordinal === kept.turn.ordinal)!, history }
    : null;
  try {
    const adapter = deps.sessions.adapter(pt.provider);
    if (!adapter?.capabilities.rollback)
      throw new Error(`${pt.provider} cannot roll back natively`);
    const env = runtimeEnvOf(state.thread!);
    // The thread's PORT goes with the resumed thread where the adapter keeps it per thread.
    const settings = { cwd, runtimeMode: state.thread!.runtimeMode, env };
    const session = await deps.sessions.ensureLoaded(pt.provider, settings, pt.nativeThreadRef);
    await session.handle.rollbackThread(pt.nativeThreadRef, boundary);
  } catch (error) {
    // The native conversation still holds the rolled-back runs: retire it so the next run on
    // this provider starts fresh from a portable summary of what remains.
    deps.log.warn(
      { threadId, providerThreadId: pt.id, error: message(error) },
      "native rollback unavailable",
    );
    if (pt.status !== "closed") {
      await deps.repo.execute({
        type: "UpdateProviderThread",
        data: { threadId, providerThreadId: pt.id, status: "closed" },
      });
    }
  }
}
