import { currentHandoffOf, projectSettingsOf, type Run, type ThreadState } from "@skein/domain";
import type { Logger } from "../logger.ts";
import { type HandoffDeps, regenerateHandoff } from "./handoff-commands.ts";

/** Called before a run's start is decided; never throws (the start builds Skein's handoff). */
export type HandoffsBeforeStart = (state: ThreadState, run: Run) => Promise<void>;

/**
 * Issue 25 item 3, the project default on the send path: in a project whose handoffs the source
 * provider writes, a run about to consume a pending transfer nobody previewed has the source
 * provider write it first, recorded as a preview. The start then sends that preview, exactly as
 * when the person asked for it on the transfer; it supersedes it if the start needs another
 * handoff after all. A handoff already previewed or edited is left as it is: that was a choice.
 */
export function providerHandoffsBeforeStart(deps: HandoffDeps, log: Logger): HandoffsBeforeStart {
  return async (state, run) => {
    const thread = state.thread;
    if (!thread) return;
    const waiting = [...state.transfers.values()].filter(
      (t) =>
        t.status === "pending" &&
        t.targetThreadId === thread.id &&
        (t.targetRunId === null || t.targetRunId === run.id) &&
        // The same provider can continue a fork natively, with no handoff to write.
        !(t.type !== "merge_back" && t.sourceProvider === run.provider) &&
        currentHandoffOf(state, t.id) === null,
    );
    if (waiting.length === 0) return;
    const { project } = await deps.repo.project(thread.projectId);
    if (!project || projectSettingsOf(project).handoffWriter !== "provider") return;
    for (const transfer of waiting) {
      try {
        await regenerateHandoff(
          deps,
          { threadId: thread.id, transferId: transfer.id },
          run.provider,
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        log.warn(
          { threadId: thread.id, transferId: transfer.id, error: reason },
          "the provider-written handoff was not previewed; the start builds Skein's",
        );
      }
    }
  };
}
