import {
  asId,
  type ContextHandoff,
  type ContextHandoffId,
  type ContextSourcePoint,
  type ContextTransfer,
  type ContextTransferId,
  currentHandoffOf,
  HandoffPayload,
  type IdSource,
  isDomainError,
  type ProviderThreadId,
  type Run,
  type ThreadState,
} from "@skein/domain";
import type {
  HandoffPlan,
  ContextSourcePoint as TransferSourcePoint,
  TransferRef,
} from "@skein/transfer";
import type { AggregateRepository } from "./aggregate-repository.ts";
import { buildPlannedHandoff, previewMismatch } from "./handoff-preview.ts";
import type { TransferInputs } from "./start-context.ts";

type Deps = { repo: AggregateRepository; ids: IdSource };
export type StartHandoffCtx = {
  state: ThreadState;
  run: Run;
  text: string;
  inputs: TransferInputs;
};
export type SentHandoff = {
  handoffId: ContextHandoffId;
  text: string;
  /** Also the E13 resolution strategy; a user's edit keeps the kind it was previewed as. */
  kind: ContextHandoff["kind"];
};

/** The ready handoff a user previewed (or edited) for a still-pending transfer, if any. */
export function previewOf(
  state: ThreadState,
  transferId: ContextTransferId | string,
): ContextHandoff | null {
  const current = currentHandoffOf(state, asId("transfer", transferId));
  return current?.status === "ready" ? current : null;
}

/** The user's own handoff text among the pending transfers; it overrides a native fork. */
export function manualPreviewOf(state: ThreadState, pending: readonly ContextTransfer[]) {
  for (const transfer of pending) {
    const preview = previewOf(state, transfer.id);
    if (preview?.strategy === "manual_context") return preview;
  }
  return null;
}

/**
 * The handoff a portable/delta start sends (T3, T6–T8, issue 8): the user's edit always; a
 * generated preview when it is what this run would build anyway; otherwise a fresh build, with
 * the stale preview superseded so the inspector never shows text nobody received.
 */
export async function settleHandoff(
  deps: Deps,
  ctx: StartHandoffCtx,
  transfer: ContextTransfer,
  plan: HandoffPlan,
  toProviderThreadId: ProviderThreadId,
): Promise<SentHandoff> {
  for (let attempt = 1; ; attempt += 1) {
    const preview = previewOf(ctx.state, transfer.id);
    try {
      return await settleWith(deps, ctx, transfer, plan, toProviderThreadId, preview);
    } catch (error) {
      // The user edited or regenerated the preview while this run was starting: send what is
      // current now rather than failing the run.
      if (attempt >= 3 || !isDomainError(error)) throw error;
      const fresh = await deps.repo.thread(ctx.state.thread!.id);
      if (currentHandoffOf(fresh, transfer.id)?.id === preview?.id) throw error;
      ctx = { ...ctx, state: fresh };
    }
  }
}

async function settleWith(
  deps: Deps,
  ctx: StartHandoffCtx,
  transfer: ContextTransfer,
  plan: HandoffPlan,
  toProviderThreadId: ProviderThreadId,
  preview: ContextHandoff | null,
): Promise<SentHandoff> {
  if (preview) {
    const stale = preview.targetRunId !== null && preview.targetRunId !== ctx.run.id;
    const reason =
      preview.strategy === "manual_context"
        ? null
        : stale
          ? "built for an earlier run that never started"
          : previewMismatch(preview, plan, ctx.run.provider);
    if (reason === null) return bindPreview(deps, ctx, preview, toProviderThreadId);
    await supersedePreview(deps, ctx, preview, reason);
  }
  return recordHandoff(deps, ctx, transfer, plan, toProviderThreadId);
}

export async function bindPreview(
  deps: Deps,
  ctx: StartHandoffCtx,
  preview: ContextHandoff,
  providerThreadId: ProviderThreadId,
): Promise<SentHandoff> {
  await deps.repo.execute({
    type: "BindHandoff",
    data: {
      threadId: ctx.state.thread!.id,
      handoffId: preview.id,
      runId: ctx.run.id,
      providerThreadId,
    },
  });
  return { handoffId: preview.id, text: preview.summaryText, kind: preview.kind };
}

export async function supersedePreview(
  deps: Deps,
  ctx: StartHandoffCtx,
  preview: ContextHandoff,
  reason: string,
): Promise<void> {
  await deps.repo.execute({
    type: "SupersedeHandoff",
    data: { threadId: ctx.state.thread!.id, handoffId: preview.id, reason },
  });
}

async function recordHandoff(
  deps: Deps,
  ctx: StartHandoffCtx,
  transfer: ContextTransfer,
  plan: HandoffPlan,
  toProviderThreadId: ProviderThreadId,
): Promise<SentHandoff> {
  const build = buildPlannedHandoff(
    ctx.inputs,
    transfer,
    plan,
    ctx.run.provider,
    toProviderThreadId,
    ctx.text,
  );
  const handoffId = deps.ids.next("handoff");
  const covered = build.coveredRunOrdinals ?? { from: 1, to: 1 };
  await deps.repo.execute({
    type: "RecordHandoff",
    data: {
      threadId: ctx.state.thread!.id,
      handoffId,
      transferId: transfer.id,
      targetRunId: ctx.run.id,
      kind: build.kind,
      strategy: build.strategy,
      fromProviderThreadIds: build.fromProviderThreadIds.map((id) => asId("providerThread", id)),
      toProviderThreadId,
      coveredRunOrdinals: covered,
      summaryText: build.summaryText,
      // Parsing brands transfer's plain-string ids and checks the payload against the schema.
      payload: HandoffPayload.parse(build.payload),
      createdByProvider: null,
      status: "ready",
    },
  });
  return { handoffId, text: build.summaryText, kind: build.kind };
}

/** Transfer works on plain-string ids; brand (and check) them on the way into the domain. */
function brandPoint(point: TransferSourcePoint): ContextSourcePoint {
  return {
    threadId: asId("thread", point.threadId),
    runId: point.runId ? asId("run", point.runId) : null,
    checkpointId: point.checkpointId ? asId("checkpoint", point.checkpointId) : null,
    turnItemId: point.turnItemId ? asId("item", point.turnItemId) : null,
    providerThreadRef: point.providerThreadRef ?? null,
    providerTurnRef: point.providerTurnRef ?? null,
  };
}

/** The transfer a portable/delta start resolves: the pending one, or a provider_handoff it records. */
export async function ensureTransfer(
  deps: Deps,
  ctx: StartHandoffCtx,
  ref: TransferRef,
): Promise<ContextTransfer> {
  const threadId = ctx.state.thread!.id;
  let transferId: ContextTransferId;
  if (ref.kind === "existing") {
    transferId = asId("transfer", ref.transferId);
  } else {
    transferId = deps.ids.next("transfer");
    await deps.repo.execute({
      type: "CreateContextTransfer",
      data: {
        threadId,
        transferId,
        type: ref.draft.type,
        sourceThreadId: asId("thread", ref.draft.sourceThreadId),
        sourcePoint: brandPoint(ref.draft.sourcePoint),
        basePoint: ref.draft.basePoint ? brandPoint(ref.draft.basePoint) : null,
        sourceProvider: ref.draft.sourceProvider,
        targetProvider: ref.draft.targetProvider,
        createdBy: "system",
        targetRunId: ctx.run.id,
      },
    });
  }
  const transfer = (await deps.repo.thread(threadId)).transfers.get(transferId);
  if (!transfer) throw new Error(`transfer ${transferId} is missing after it was recorded`);
  return transfer;
}
