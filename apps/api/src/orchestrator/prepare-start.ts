import {
  asId,
  type ContextHandoffId,
  type ContextSourcePoint,
  type ContextTransfer,
  type ContextTransferId,
  HandoffPayload,
  type IdSource,
  type ProviderKind,
  type ProviderThreadId,
  type Run,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { NativeTurnRecord, ThreadSettings } from "@skein/domain/provider";
import {
  buildHandoff,
  type HandoffPlan,
  resolveStartContext,
  type StartContextResolution,
  type ContextSourcePoint as TransferSourcePoint,
  type TransferRef,
} from "@skein/transfer";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { LiveSession, SessionManager } from "./session-manager.ts";
import { gatherTransferInputs, type TransferInputs } from "./start-context.ts";

/** The provider thread a run will execute on, and the context to send with its message. */
export type PreparedStart = {
  session: LiveSession;
  providerThreadId: ProviderThreadId;
  nativeThreadRef: string;
  handoff: { handoffId: ContextHandoffId; text: string } | null;
  transferId: ContextTransferId | null;
};

type Deps = { repo: AggregateRepository; sessions: SessionManager; ids: IdSource };
type Failures = {
  nativeForkFailedTransferIds: ContextTransferId[];
  providerThreads: Array<{ providerThreadId: ProviderThreadId; reason: "resume_failed" }>;
};

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Lazy transfer resolution at run start (T3–T8): asks packages/transfer what the run needs, then
 * does only that — resume, native fork, or a portable/delta handoff on a new or resumed provider
 * thread. A native fork or resume that fails is remembered and resolution runs again, so the
 * fallback (portable context) is chosen by the same rules and recorded on the transfer.
 */
export async function prepareStart(
  deps: Deps,
  threadId: ThreadId,
  run: Run,
  text: string,
  settings: ThreadSettings,
): Promise<PreparedStart | { failed: string }> {
  const adapter = deps.sessions.adapter(run.provider);
  if (!adapter) return { failed: `provider ${run.provider} is not configured on this server` };
  const caps = adapter.capabilities;
  const failures: Failures = { nativeForkFailedTransferIds: [], providerThreads: [] };
  const nativeFailures = new Map<ContextTransferId, string>();
  for (let round = 0; round < 4; round += 1) {
    const state = await deps.repo.thread(threadId);
    const inputs = await gatherTransferInputs(deps.repo, state);
    const resolution = resolveStartContext({
      threadId,
      provider: run.provider,
      message: text,
      capabilities: {
        nativeFork: caps.nativeFork,
        forkAtTurn: caps.forkAtTurn,
        resume: caps.resume,
      },
      pendingTransfers: inputs.pendingTransfers,
      providerThreads: [...state.providerThreads.values()],
      runs: inputs.runs,
      lineage: inputs.lineage,
      checkpoints: inputs.checkpoints,
      turnItems: inputs.turnItems,
      handoffs: [...state.handoffs.values()],
      knownFailures: failures,
    });
    if (resolution.kind === "unsupported") return { failed: resolution.detail };
    const session = await deps.sessions.ensure(run.provider, settings.cwd, settings.model ?? null);
    try {
      return await apply(
        deps,
        { state, run, text, settings, session, inputs, nativeFailures },
        resolution,
      );
    } catch (error) {
      if (error instanceof RetryWith) {
        if (error.nativeForkFailed) {
          failures.nativeForkFailedTransferIds.push(error.nativeForkFailed);
          nativeFailures.set(error.nativeForkFailed, error.reason);
        }
        if (error.resumeFailed) {
          failures.providerThreads.push({
            providerThreadId: error.resumeFailed,
            reason: "resume_failed",
          });
        }
        continue;
      }
      throw error;
    }
  }
  return { failed: "could not establish context for the run after repeated provider failures" };
}

/** Signals that resolution must run again with a failure taken into account. */
class RetryWith extends Error {
  constructor(
    readonly reason: string,
    readonly nativeForkFailed?: ContextTransferId,
    readonly resumeFailed?: ProviderThreadId,
  ) {
    super(reason);
  }
}

type Ctx = {
  state: ThreadState;
  run: Run;
  text: string;
  settings: ThreadSettings;
  session: LiveSession;
  inputs: TransferInputs;
  nativeFailures: Map<ContextTransferId, string>;
};

async function apply(
  deps: Deps,
  ctx: Ctx,
  res: Exclude<StartContextResolution, { kind: "unsupported" }>,
): Promise<PreparedStart> {
  const threadId = ctx.state.thread!.id;
  switch (res.kind) {
    case "none": {
      const target =
        res.target.action === "continue"
          ? await continueThread(
              deps,
              ctx,
              asId("providerThread", res.target.providerThreadId),
              res.target.resume,
            )
          : await startThread(deps, ctx, null);
      if (res.transfer) {
        // A transfer whose source point holds nothing to carry over (e.g. a fork of an empty thread).
        const transferId = asId("transfer", res.transfer.transferId);
        await deps.repo.execute({
          type: "SupersedeContextTransfer",
          data: { threadId, transferId },
        });
      }
      return { ...target, handoff: null, transferId: null };
    }
    case "native": {
      const transferId = asId("transfer", res.transfer.transferId);
      if (!res.fork.sourceProviderThreadId)
        throw new RetryWith("source has no provider thread", transferId);
      const sourceProviderThreadId = asId("providerThread", res.fork.sourceProviderThreadId);
      const source = await deps.repo.thread(asId("thread", res.fork.sourceThreadId));
      const history: NativeTurnRecord[] = [...source.providerTurns.values()]
        .filter((t) => t.providerThreadId === sourceProviderThreadId)
        .sort((a, b) => a.ordinal - b.ordinal)
        .map((t) => ({ nativeTurnRef: t.nativeTurnRef, ordinal: t.ordinal, status: t.status }));
      const turn = history.find((t) => t.nativeTurnRef === res.fork.providerTurnRef);
      let nativeThreadRef: string;
      try {
        const forked = await ctx.session.handle.forkThread(
          { nativeThreadRef: res.fork.providerThreadRef, at: turn ? { turn, history } : null },
          ctx.settings,
        );
        nativeThreadRef = forked.nativeThreadRef;
      } catch (error) {
        throw new RetryWith(`native fork failed: ${message(error)}`, transferId);
      }
      const providerThreadId = deps.ids.next("providerThread");
      await deps.repo.execute({
        type: "RecordProviderThread",
        data: {
          threadId,
          providerThreadId,
          provider: ctx.run.provider,
          providerSessionId: ctx.session.providerSessionId,
          nativeThreadRef,
          status: "idle",
          forkedFrom: {
            providerThreadId: sourceProviderThreadId,
            nativeThreadRef: res.fork.providerThreadRef,
            nativeTurnRef: res.fork.providerTurnRef,
            transferId,
          },
        },
      });
      ctx.session.loadedThreads.add(nativeThreadRef);
      await deps.repo.execute({
        type: "ResolveContextTransfer",
        data: {
          threadId,
          transferId,
          resolution: { strategy: "native_fork", providerThreadRef: nativeThreadRef },
        },
      });
      return { session: ctx.session, providerThreadId, nativeThreadRef, handoff: null, transferId };
    }
    case "portable":
    case "delta": {
      const target =
        res.target.action === "continue"
          ? await continueThread(
              deps,
              ctx,
              asId("providerThread", res.target.providerThreadId),
              res.target.resume,
            )
          : await startThread(deps, ctx, null);
      const transfer = await ensureTransfer(deps, ctx, res.transfer);
      const handoff = await recordHandoff(
        deps,
        ctx,
        transfer,
        res.handoff,
        target.providerThreadId,
      );
      const fallback = ctx.nativeFailures.get(transfer.id);
      if (fallback) {
        await deps.repo.execute({
          type: "FallbackToPortable",
          data: {
            threadId,
            transferId: transfer.id,
            reason: fallback,
            contextHandoffId: handoff.handoffId,
          },
        });
      } else {
        await deps.repo.execute({
          type: "ResolveContextTransfer",
          data: {
            threadId,
            transferId: transfer.id,
            resolution: { strategy: res.handoff.kind, contextHandoffId: handoff.handoffId },
          },
        });
      }
      await deps.repo.execute({
        type: "UpdateProviderThread",
        data: {
          threadId,
          providerThreadId: target.providerThreadId,
          addHandoffIds: [handoff.handoffId],
        },
      });
      return { ...target, handoff, transferId: transfer.id };
    }
  }
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

async function ensureTransfer(deps: Deps, ctx: Ctx, ref: TransferRef): Promise<ContextTransfer> {
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

async function recordHandoff(
  deps: Deps,
  ctx: Ctx,
  transfer: ContextTransfer,
  plan: HandoffPlan,
  toProviderThreadId: ProviderThreadId,
): Promise<{ handoffId: ContextHandoffId; text: string }> {
  const checkpoint = plan.checkpointId
    ? ctx.inputs.checkpoints.find((c) => c.id === plan.checkpointId)
    : null;
  const build = buildHandoff({
    ...plan,
    transfer,
    runs: ctx.inputs.runs,
    turnItems: ctx.inputs.turnItems,
    targetProvider: ctx.run.provider,
    toProviderThreadId,
    newMessage: ctx.text,
    checkpoint: checkpoint ?? null,
  });
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
  return { handoffId, text: build.summaryText };
}

async function startThread(deps: Deps, ctx: Ctx, replaces: ProviderThreadId | null) {
  const { nativeThreadRef } = await ctx.session.handle.startThread(ctx.settings);
  const providerThreadId = deps.ids.next("providerThread");
  await deps.repo.execute({
    type: "RecordProviderThread",
    data: {
      threadId: ctx.state.thread!.id,
      providerThreadId,
      provider: ctx.run.provider as ProviderKind,
      providerSessionId: ctx.session.providerSessionId,
      nativeThreadRef,
      status: "idle",
      forkedFrom: null,
    },
  });
  void replaces;
  ctx.session.loadedThreads.add(nativeThreadRef);
  return { session: ctx.session, providerThreadId, nativeThreadRef };
}

async function continueThread(
  deps: Deps,
  ctx: Ctx,
  providerThreadId: ProviderThreadId,
  resume: boolean,
) {
  const pt = ctx.state.providerThreads.get(providerThreadId);
  const ref = pt?.nativeThreadRef;
  if (!pt || !ref)
    throw new RetryWith("provider thread has no native ref", undefined, providerThreadId);
  if (!ctx.session.loadedThreads.has(ref)) {
    // Whether this runtime has the thread loaded is known only here (a reaped or restarted
    // runtime has none), so resume whenever the adapter can, whatever the persisted status says.
    if (!resume && !ctx.session.handle.capabilities.resume)
      throw new RetryWith(
        "provider thread is not loaded and cannot be resumed",
        undefined,
        providerThreadId,
      );
    try {
      await ctx.session.handle.resumeThread(ref, ctx.settings);
    } catch (error) {
      throw new RetryWith(`resume failed: ${message(error)}`, undefined, providerThreadId);
    }
    ctx.session.loadedThreads.add(ref);
  }
  if (pt.providerSessionId !== ctx.session.providerSessionId) {
    await deps.repo.execute({
      type: "UpdateProviderThread",
      data: {
        threadId: ctx.state.thread!.id,
        providerThreadId,
        providerSessionId: ctx.session.providerSessionId,
      },
    });
  }
  return { session: ctx.session, providerThreadId, nativeThreadRef: ref };
}
