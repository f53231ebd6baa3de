import type { Run, ThreadId } from "@skein/domain";
import type { ThreadSettings } from "@skein/domain/provider";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { ActiveTurn } from "../runtime/active-turns.ts";
import type { SessionManager } from "../runtime/session-manager.ts";
import type { RunAppender } from "./lease-fence.ts";

type ReattachDeps = {
  ctx: { repo: AggregateRepository; sessions: SessionManager };
  threadId: ThreadId;
  /** The thread's lease-fenced appends. */
  appends: RunAppender;
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
  const { repo, sessions } = deps.ctx;
  const threadId = deps.threadId;
  const session = await sessions.ensureLoaded(run.provider, settings, active.nativeThreadRef);
  active.session = session;
  const providerThreadId = (await repo.thread(threadId)).runs.get(run.id)?.providerThreadId;
  if (providerThreadId) {
    await deps.appends.execute({
      type: "UpdateProviderThread",
      data: { threadId, providerThreadId, providerSessionId: session.providerSessionId },
    });
  }
}
