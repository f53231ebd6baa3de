import type { IdSource, Run, RunId, ThreadId } from "@skein/domain";
import type { ProviderFailure, ThreadSettings } from "@skein/domain/provider";
import type { ActiveTurn } from "../runtime/active-turns.ts";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { AttemptPolicy } from "../runs/attempt-policy.ts";
import { decideFailure } from "../runs/failure-policy.ts";
import type { RunAppender } from "./lease-fence.ts";
import type { Logger } from "../logger.ts";
import type { SessionManager } from "../runtime/session-manager.ts";

/**
 * A run's new attempts after provider failures (B2): how many so far, and the one to start (the
 * failure it follows and how long to wait first).
 */
export type Recovery = {
  retries: number;
  pending: { failure: ProviderFailure; delayMs: number } | null;
};

export type RecoveryDeps = {
  repo: AggregateRepository;
  sessions: SessionManager;
  ids: IdSource;
  log: Logger;
  policy: AttemptPolicy;
  /** The thread's lease-fenced appends. */
  appends: RunAppender;
  /** The server stops or the thread's lease is lost: no new attempt. */
  halted: () => boolean;
};

/**
 * B2: a turn failed mid-run. When its cause is one a new attempt can get past and the run has
 * attempts left, the run gets a new attempt (recorded before the failed turn's end, so the run
 * does not end with it) and `recovery.pending` tells the run loop to start it.
 */
export async function startNewAttempt(
  deps: RecoveryDeps,
  threadId: ThreadId,
  runId: RunId,
  active: ActiveTurn,
  recovery: Recovery,
  failure: ProviderFailure,
): Promise<void> {
  if (deps.halted() || active.interruptRequested || active.restartWith !== null) return;
  const decision = decideFailure(failure, {
    runtimeAlive: active.session.handle.isAlive(),
    retries: recovery.retries,
    policy: deps.policy,
  });
  if (!decision.attempt) return;
  const reason = decision.attempt;
  await deps.appends.execute({
    type: "RestartAttempt",
    data: {
      threadId,
      runId,
      attemptId: deps.ids.next("attempt"),
      rootNodeId: deps.ids.next("node"),
      reason,
    },
  });
  recovery.retries += 1;
  recovery.pending = { failure, delayMs: decision.delayMs };
  deps.log.warn({ threadId, runId, reason, failure, retry: recovery.retries }, "new attempt");
}

/** Puts the run back on a live runtime that has its provider thread loaded (R2 refs). */
export async function reattach(
  deps: RecoveryDeps,
  threadId: ThreadId,
  active: ActiveTurn,
  run: Run,
  settings: ThreadSettings,
): Promise<void> {
  if (active.session.handle.isAlive()) return;
  const session = await deps.sessions.ensure(
    run.provider,
    settings.cwd,
    settings.model ?? null,
    settings.env,
  );
  if (!session.loadedThreads.has(active.nativeThreadRef)) {
    await session.handle.resumeThread(active.nativeThreadRef, settings);
    session.loadedThreads.add(active.nativeThreadRef);
  }
  active.session = session;
  const providerThreadId = (await deps.repo.thread(threadId)).runs.get(run.id)?.providerThreadId;
  if (providerThreadId) {
    await deps.appends.execute({
      type: "UpdateProviderThread",
      data: { threadId, providerThreadId, providerSessionId: session.providerSessionId },
    });
  }
}
