import {
  type ContextTransferId,
  currentHandoffOf,
  latestStablePoint,
  projectSettingsOf,
  type Run,
  type ThreadState,
} from "@skein/domain";
import type { Logger } from "../logger.ts";
import { type HandoffDeps, regenerateHandoff } from "./handoff-commands.ts";

/** Called before a run's start is decided; never throws (the start builds Skein's handoff). */
export type HandoffsBeforeStart = (state: ThreadState, run: Run) => Promise<void>;

/**
 * Issue 25 item 3, the project default on the send path: in a project whose handoffs the source
 * provider writes, a run about to consume a transfer nobody previewed has the source provider
 * write it first, recorded as a preview. The start then sends that preview, exactly as when the
 * person asked for it on the transfer (and supersedes it if the start needs another handoff after
 * all). A handoff already previewed or edited is left as it is: that was a choice.
 */
export function providerHandoffsBeforeStart(deps: HandoffDeps, log: Logger): HandoffsBeforeStart {
  return async (state, run) => {
    const thread = state.thread;
    if (!thread) return;
    const pending = [...state.transfers.values()].filter(
      (t) =>
        t.status === "pending" &&
        t.targetThreadId === thread.id &&
        (t.targetRunId === null || t.targetRunId === run.id),
    );
    const waiting = pending.filter(
      (t) =>
        // A sub-agent starts while its parent's turn is still running (the delegate call waits
        // on it): no side turn on the parent's thread there; Skein's builder serves it.
        t.type !== "subagent_spawn" &&
        t.type !== "subagent_result" &&
        // The same provider can continue a fork natively, with no handoff to write.
        !(t.type !== "merge_back" && t.sourceProvider === run.provider) &&
        currentHandoffOf(state, t.id) === null,
    );
    // A provider switch on this thread: its transfer would only be recorded by the start.
    const latest = latestStablePoint(state);
    const switching =
      pending.length === 0 && latest.run !== null && latest.run.provider !== run.provider;
    if (waiting.length === 0 && !switching) return;
    const { project } = await deps.repo.project(thread.projectId);
    if (!project || projectSettingsOf(project).handoffWriter !== "provider") return;
    try {
      const transfers = switching
        ? [await recordSwitch(deps, state, run, latest)]
        : waiting.map((t) => t.id);
      for (const transferId of transfers) {
        await regenerateHandoff(deps, { threadId: thread.id, transferId }, run.provider);
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.warn(
        { threadId: thread.id, runId: run.id, error: reason },
        "the provider-written handoff was not previewed; the start builds Skein's",
      );
    }
  };
}

/** The provider handoff the start would record for this run, recorded now (as a reviewed send does). */
async function recordSwitch(
  deps: HandoffDeps,
  state: ThreadState,
  run: Run,
  latest: ReturnType<typeof latestStablePoint>,
): Promise<ContextTransferId> {
  const transferId = deps.ids.next("transfer");
  await deps.repo.execute({
    type: "CreateContextTransfer",
    data: {
      threadId: state.thread!.id,
      transferId,
      type: "provider_handoff",
      sourceThreadId: state.thread!.id,
      sourcePoint: latest.point,
      basePoint: null,
      sourceProvider: latest.run?.provider ?? null,
      targetProvider: run.provider,
      // As the start would record it: the person chose the provider, not the transfer.
      createdBy: "system",
      targetRunId: run.id,
    },
  });
  return transferId;
}
