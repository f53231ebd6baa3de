import {
  asId,
  type ContextHandoff,
  type ContextTransfer,
  HandoffPayload,
  type HandoffWriter,
  latestStablePoint,
  PreconditionFailedError,
  type ProviderKind,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import {
  buildPlannedHandoff,
  previewOf,
  resolveStartContext,
  startContextHistory,
} from "@skein/transfer";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import { editHandoff, type HandoffDeps, withNetDiffs, writerFor } from "./handoff-commands.ts";
import { providerAuthored } from "./provider-authored.ts";
import type { HandoffDraft } from "@skein/contract";

/** Stands in for the transfer a message would create; never recorded. */
const DRAFT_ID = asId("transfer", "ctx_draft");

/** The merge-back transfer `QueueRun` would record for `bringBackFrom` (same rules, T8). */
async function mergeBackDraft(
  repo: AggregateRepository,
  state: ThreadState,
  forkId: ThreadId,
  provider: ProviderKind,
): Promise<ContextTransfer> {
  const fork = await repo.thread(forkId);
  const threadId = state.thread!.id;
  if (fork.thread?.lineage?.parentThreadId !== threadId || !fork.inheritance) {
    throw new PreconditionFailedError(`thread ${forkId} is not a fork of ${threadId}`);
  }
  const latest = latestStablePoint(fork);
  if (!latest.run) {
    throw new PreconditionFailedError(`fork ${forkId} has no completed run to bring back`);
  }
  return {
    id: DRAFT_ID,
    type: "merge_back",
    sourceThreadId: fork.thread.id,
    targetThreadId: threadId,
    sourcePoint: latest.point,
    basePoint: fork.inheritance.sourcePoint,
    sourceProvider: latest.run.provider,
    targetProvider: provider,
    status: "pending",
    resolution: null,
    createdBy: "user",
    createdAt: new Date().toISOString(),
    consumedAt: null,
    targetRunId: null,
    consumedByRunId: null,
    fallback: null,
    error: null,
  };
}

/**
 * `handoff.draft`: the handoff the thread's next message would send on `provider` (a provider
 * switch), or with `bringBackFrom` (a bring-back), built exactly as the run would build it, and
 * recorded nowhere. `needed: false` when that message carries nothing over. Written by `writer`,
 * else by the project's `handoffWriter` (issue 25 item 3): in a 'provider' project the review
 * shows the source provider's text, or Skein's with the reason it stands in.
 */
export async function draftHandoff(
  deps: HandoffDeps,
  state: ThreadState,
  input: { provider: ProviderKind; bringBackFrom?: ThreadId; writer?: HandoffWriter },
): Promise<HandoffDraft> {
  const threadId = state.thread!.id;
  const capabilities = deps.capabilities(input.provider);
  if (!capabilities) {
    throw new PreconditionFailedError(
      `provider ${input.provider} is not configured on this server`,
    );
  }
  let target = state;
  if (input.bringBackFrom) {
    const draft = await mergeBackDraft(deps.repo, state, input.bringBackFrom, input.provider);
    target = { ...state, transfers: new Map([...state.transfers, [draft.id, draft]]) };
  }
  const inputs = await withNetDiffs(deps, target, input.provider);
  const res = resolveStartContext({
    threadId,
    provider: input.provider,
    message: "",
    // A provider that can fork natively would carry a fork itself; what can be reviewed is text.
    capabilities: { ...capabilities, nativeFork: false },
    ...startContextHistory(target, inputs),
  });
  if (res.kind === "unsupported") throw new PreconditionFailedError(res.detail);
  if (res.kind === "none" || res.kind === "native") return { needed: false };
  const transfer: ContextTransfer =
    res.transfer.kind === "existing"
      ? (target.transfers.get(asId("transfer", res.transfer.transferId)) as ContextTransfer)
      : {
          id: DRAFT_ID,
          type: res.transfer.draft.type,
          sourceThreadId: asId("thread", res.transfer.draft.sourceThreadId),
          targetThreadId: threadId,
          sourcePoint: res.transfer.draft.sourcePoint as ContextTransfer["sourcePoint"],
          basePoint: (res.transfer.draft.basePoint ?? null) as ContextTransfer["basePoint"],
          sourceProvider: res.transfer.draft.sourceProvider,
          targetProvider: res.transfer.draft.targetProvider,
          status: "pending",
          resolution: null,
          createdBy: "user",
          createdAt: new Date().toISOString(),
          consumedAt: null,
          targetRunId: null,
          consumedByRunId: null,
          fallback: null,
          error: null,
        };
  const build = buildPlannedHandoff(
    inputs,
    transfer,
    res.handoff,
    input.provider,
    null,
    null,
    null,
    capabilities.appOwnedTools === true,
  );
  // A pending transfer the person already previewed or edited sends that text: show it.
  const saved = res.transfer.kind === "existing" ? previewOf(target, transfer.id) : null;
  const manual = saved?.strategy === "manual_context" ? saved : null;
  if (manual) return draftOf(transfer, manual, build.coveredRunOrdinals ?? null);
  const writer = await writerFor(deps, state, input.writer);
  const written =
    writer === "provider" && build.strategy !== "manual_context"
      ? { ...build, ...(await providerAuthored(deps, inputs, build)) }
      : build;
  return draftOf(transfer, written, build.coveredRunOrdinals ?? null);
}

function draftOf(
  transfer: ContextTransfer,
  handoff: Pick<ContextHandoff, "kind" | "strategy" | "summaryText"> & { payload: unknown },
  coveredRunOrdinals: { from: number; to: number } | null,
): HandoffDraft {
  return {
    needed: true,
    transferType: transfer.type,
    kind: handoff.kind,
    strategy: handoff.strategy,
    text: handoff.summaryText,
    coveredRunOrdinals,
    payload: HandoffPayload.parse(handoff.payload),
  };
}

/**
 * A message sent with the person's reviewed handoff text: the transfer its run resolves (the
 * bring-back's, a pending one, or a provider handoff recorded now for this run) gets that text
 * as a `manual_context` handoff, which the run sends as-is. Called before the run is dispatched.
 */
export async function attachReviewedHandoff(
  deps: HandoffDeps,
  threadId: ThreadId,
  runId: RunId,
  text: string,
): Promise<void> {
  const state = await deps.repo.thread(threadId);
  const run = state.runs.get(runId);
  if (!run) throw new PreconditionFailedError(`run ${runId} is not recorded`);
  const pending = [...state.transfers.values()].filter((t) => t.status === "pending");
  let transfer = pending.find((t) => t.targetRunId === runId) ?? pending[0];
  if (!transfer) {
    const latest = latestStablePoint(state);
    const transferId = deps.ids.next("transfer");
    await deps.repo.execute({
      type: "CreateContextTransfer",
      data: {
        threadId,
        transferId,
        type: "provider_handoff",
        sourceThreadId: threadId,
        sourcePoint: latest.point,
        basePoint: null,
        sourceProvider: latest.run?.provider ?? null,
        targetProvider: run.provider,
        createdBy: "user",
        targetRunId: runId,
      },
    });
    transfer = (await deps.repo.thread(threadId)).transfers.get(transferId);
    if (!transfer) throw new Error(`transfer ${transferId} is missing after it was recorded`);
  }
  // No command context: the message's own command already answers with its run id.
  await editHandoff(deps, { threadId, transferId: transfer.id }, text);
}
