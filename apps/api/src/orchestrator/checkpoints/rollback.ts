import {
  type CheckpointId,
  ConflictError,
  type CommandId,
  decide,
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  type ProviderThread,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { NativeTurnRecord } from "@skein/domain/provider";
import type { EventStore } from "@skein/db";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CheckpointService } from "./checkpoint-service.ts";
import type { CommandContext } from "../commands/command-gate.ts";
import type { Logger } from "../logger.ts";
import type { SessionManager } from "../runtime/session-manager.ts";

type Deps = {
  store: EventStore;
  repo: AggregateRepository;
  sessions: SessionManager;
  checkpoints: CheckpointService;
  ids: IdSource;
  clock: () => Date;
  log: Logger;
};

const IN_FLIGHT = ["starting", "running", "waiting"];
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Rolls a thread back to a root-run checkpoint: the domain validates first (nothing on disk moves
 * for a refused rollback), then the workspace is restored byte for byte, each provider thread
 * drops the turns of later runs natively where it can (else it is closed, so the next run gets a
 * portable handoff), and the later runs become `rolled_back` — kept in the graph, still forkable.
 *
 * B3: the caller (the command gate) has already answered a replay from its receipt, so this runs
 * once per command id. The intent is recorded before the first file moves; a crash between the
 * effects and the append leaves it, and the command is finished on restart (restoring the same
 * ref and reverting to the same native boundary again change nothing the first pass did).
 */
export async function rollbackToCheckpoint(
  deps: Deps,
  threadId: ThreadId,
  checkpointId: CheckpointId,
  command: CommandContext,
): Promise<{ sequence: number }> {
  const state = await deps.repo.thread(threadId);
  if (!state.thread) throw new NotFoundError("thread", threadId);
  const rollback = { type: "RollbackThread" as const, data: { threadId, checkpointId } };
  const meta = {
    commandId: deps.ids.next("command") as CommandId,
    at: deps.clock().toISOString(),
    ids: deps.ids,
  };
  const check = decide(rollback, state, meta, {});
  if (!check.ok) throw check.error;

  const cwd = await workspaceOf(deps.repo, state);
  await refuseIfWorkspaceBusy(deps, threadId, cwd);
  const checkpoint = state.checkpoints.get(checkpointId)!;
  const files = await deps.checkpoints.storeFor(cwd);
  if ((await files.status(checkpoint.ref)) === "missing") {
    await deps.repo.execute({ type: "MarkCheckpointMissing", data: { threadId, checkpointId } });
    throw new PreconditionFailedError(
      `checkpoint ${checkpointId} cannot be restored: its git ref ${checkpoint.ref} was deleted`,
    );
  }
  await command.intend({ threadId, checkpointId, ref: checkpoint.ref });
  await files.restore(checkpoint.ref);
  const keep = checkpoint.appRunOrdinal ?? state.runs.get(checkpoint.runId!)?.ordinal ?? 0;
  if (files.mode === "repo") {
    // A bring-back with code "merge" moved the branch: runs rolled back take their merge
    // commits back off it too (only while they sit at its tip; a branch moved on is the user's).
    const later = [...state.runs.values()].filter((r) => r.ordinal > keep).map((r) => r.id);
    await files.undoBranchMerges(new Set<string>(later));
  }
  for (const pt of state.providerThreads.values()) {
    await rollbackProviderThread(deps, state, pt, keep, cwd);
  }
  const result = await deps.repo.execute(rollback, command.answer({}));
  return { sequence: result.sequence };
}

async function workspaceOf(repo: AggregateRepository, state: ThreadState): Promise<string> {
  const project = await repo.project(state.thread!.projectId);
  return state.thread!.worktreePath ?? project.project?.workspaceRoot ?? process.cwd();
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
    const session = await deps.sessions.ensure(pt.provider, cwd, null);
    if (!session.loadedThreads.has(pt.nativeThreadRef)) {
      await session.handle.resumeThread(pt.nativeThreadRef, {
        cwd,
        runtimeMode: state.thread!.runtimeMode,
      });
      session.loadedThreads.add(pt.nativeThreadRef);
    }
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
