import type { ProviderSessionId, Run, RunId } from "@skein/domain";
import type { ThreadSettings } from "@skein/domain/provider";
import type { ActiveTurn } from "../runtime/active-turns.ts";
import type { SessionManager } from "../runtime/session-manager.ts";

type ReattachDeps = {
  ctx: { sessions: SessionManager };
  /** Records the run's provider thread on its new runtime (the thread's scope). */
  movedToSession: (runId: RunId, providerSessionId: ProviderSessionId) => Promise<void>;
};

/**
 * B2: puts a run whose turn failed back on a live runtime that has its provider thread loaded
 * (R2 refs): a dead runtime is replaced by a new one resuming the thread, and the provider
 * thread records the new session.
 */
export async function reattach(
  deps: ReattachDeps,
  active: ActiveTurn,
  run: Run,
  settings: ThreadSettings,
): Promise<void> {
  if (active.session.handle.isAlive()) return;
  const session = await deps.ctx.sessions.ensureLoaded(
    run.provider,
    settings,
    active.nativeThreadRef,
  );
  active.session = session;
  await deps.movedToSession(run.id, session.providerSessionId);
}
