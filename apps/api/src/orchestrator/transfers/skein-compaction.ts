import {
  type ContextTransfer,
  latestStablePoint,
  type ProviderKind,
  type ProviderThread,
  type Run,
  type ThreadState,
} from "@skein/domain";
import type { ProviderCapabilityFlags } from "@skein/domain/provider";
import type { Logger } from "../logger.ts";
import type { RunAppender } from "../recovery/lease-fence.ts";
import { type HandoffDeps, regenerateHandoff } from "./handoff-commands.ts";

/**
 * Compacts a thread whose provider cannot compact natively (issue 25 item 5): records the run,
 * its compaction item, the retired provider thread and the handoff holding the text. Resolves
 * with why it could not (the caller fails the run, nothing else is recorded), or null.
 */
export type SkeinCompaction = (run: Run, appends: RunAppender) => Promise<string | null>;

/**
 * Whether a provider compacts its own context (P6: Codex `thread/compact/start`, Claude
 * `/compact`). An adapter compacts only what it can read back natively: the ACP adapter refuses
 * `compact` without `readHistory` (acp-provider-session.ts), so the two stand or fall together.
 */
export function compactsNatively(capabilities: ProviderCapabilityFlags | null): boolean {
  return capabilities?.readHistory === true;
}

const RETIRED = new Set(["archived", "closed", "error"]);

/**
 * Skein writes the compaction with the handoff builder (the whole-thread structured summary a
 * portable handoff carries: goal, state of the code, decisions, open tasks, recent errors, last
 * exchange, within the budget). It is kept as the preview of a provider handoff on the same
 * thread and provider, and the provider thread that holds the long context is closed, so the
 * next run starts a new provider thread seeded with exactly that text (run-start binds a matching
 * preview). The person can review or edit it before then, as any pending handoff (T11).
 */
export function skeinCompaction(deps: HandoffDeps, log: Logger): SkeinCompaction {
  return async (run, appends) => {
    const state = await deps.repo.thread(run.threadId);
    const retired = toRetire(state, run.provider);
    if (typeof retired === "string") return retired;
    const threadId = run.threadId;
    const providerTurnId = deps.ids.next("providerTurn");
    const nodeId = deps.ids.next("node");
    const transferId = deps.ids.next("transfer");
    const latest = latestStablePoint(state);
    await appends.executeBatch([
      {
        type: "StartRun",
        data: {
          threadId,
          runId: run.id,
          attemptId: deps.ids.next("attempt"),
          rootNodeId: deps.ids.next("node"),
          providerThreadId: retired.id,
        },
      },
      { type: "StartProviderTurn", data: { threadId, runId: run.id, providerTurnId } },
      {
        type: "StartItem",
        data: { threadId, providerTurnId, nodeId, kind: "system", content: { type: "compaction" } },
      },
      // Retired, so the next run cannot continue it and starts a new provider thread instead.
      {
        type: "UpdateProviderThread",
        data: { threadId, providerThreadId: retired.id, status: "closed" },
      },
      {
        type: "CreateContextTransfer",
        data: {
          threadId,
          transferId,
          type: "provider_handoff",
          sourceThreadId: threadId,
          sourcePoint: latest.point,
          basePoint: null,
          sourceProvider: run.provider,
          targetProvider: run.provider,
          createdBy: "system",
          targetRunId: null,
        },
      },
      {
        type: "CompleteItem",
        data: {
          threadId,
          nodeId,
          status: "completed",
          content: { type: "compaction", transferId },
        },
      },
      { type: "CompleteProviderTurn", data: { threadId, providerTurnId, status: "completed" } },
    ]);
    // Written once the run is over: the next run plans its handoff over the runs as they are
    // then, and only a preview of the same coverage is sent as-is (previewMismatch).
    try {
      await regenerateHandoff(deps, { threadId, transferId }, run.provider, "skein");
    } catch (error) {
      // The transfer stands: the next run builds the same summary itself.
      const reason = error instanceof Error ? error.message : String(error);
      log.warn({ threadId, runId: run.id, error: reason }, "compaction text not previewed");
    }
    return null;
  };
}

/**
 * Why Skein cannot compact the thread on `provider` now (a typed refusal before anything is
 * queued, and again when the run is dispatched), or null.
 */
export function compactionRefusal(state: ThreadState, provider: ProviderKind): string | null {
  const found = toRetire(state, provider);
  return typeof found === "string" ? found : null;
}

/** The provider thread to retire, or why there is nothing Skein can compact. */
function toRetire(state: ThreadState, provider: ProviderKind): ProviderThread | string {
  const threadId = state.thread?.id;
  const pending = [...state.transfers.values()].filter(
    (t: ContextTransfer) => t.status === "pending" && t.targetThreadId === threadId,
  );
  if (pending.length > 0) {
    return `transfer ${pending[0]!.id} already carries context to this thread's next run; send a message first, then compact`;
  }
  const latest = [...state.runOrder]
    .reverse()
    .map((id) => state.runs.get(id))
    .find((r) => r && r.compact !== true && r.provider === provider && r.providerThreadId);
  const providerThread = latest?.providerThreadId
    ? state.providerThreads.get(latest.providerThreadId)
    : undefined;
  if (!providerThread || RETIRED.has(providerThread.status)) {
    return `nothing to compact on ${provider}: no provider thread of this thread holds context`;
  }
  return providerThread;
}
