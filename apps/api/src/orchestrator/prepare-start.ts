import {
  asId,
  type ContextHandoffId,
  type ContextTransferId,
  type IdSource,
  type ProviderKind,
  type ProviderThreadId,
  type Run,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { NativeTurnRecord, ThreadSettings } from "@skein/domain/provider";
import { resolveStartContext, type StartContextResolution } from "@skein/transfer";
import type { AggregateRepository } from "./aggregate-repository.ts";
import type { LiveSession, SessionManager } from "./session-manager.ts";
import { gatherTransferInputs, startContextHistory, type TransferInputs } from "./start-context.ts";
import {
  bindPreview,
  ensureTransfer,
  manualPreviewOf,
  previewOf,
  type SentHandoff,
  settleHandoff,
  supersedePreview,
} from "./start-handoff.ts";

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
    // The user's edited handoff is what they chose to carry over, so it rules out a native fork.
    const manual = manualPreviewOf(state, inputs.pendingTransfers);
    const resolution = resolveStartContext({
      threadId,
      provider: run.provider,
      message: text,
      capabilities: {
        nativeFork: caps.nativeFork,
        forkAtTurn: caps.forkAtTurn,
        resume: caps.resume,
      },
      ...startContextHistory(state, inputs),
      manualContext: manual?.summaryText ?? null,
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
        const transferId = asId("transfer", res.transfer.transferId);
        const preview = previewOf(ctx.state, transferId);
        if (preview?.strategy === "manual_context") {
          // Nothing needs carrying over, but the user wrote text for this run: send it.
          const handoff = await bindPreview(deps, ctx, preview, target.providerThreadId);
          await resolvePortable(deps, ctx, transferId, handoff, target.providerThreadId);
          return { ...target, handoff, transferId };
        }
        if (preview) await supersedePreview(deps, ctx, preview, "nothing to carry over");
        // A transfer whose source point holds nothing to carry over (e.g. a fork of an empty thread).
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
      // The provider carries the history itself; an unedited preview was never going to be sent.
      const preview = previewOf(ctx.state, transferId);
      if (preview) await supersedePreview(deps, ctx, preview, "forked natively instead");
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
      const handoff = await settleHandoff(
        deps,
        ctx,
        transfer,
        res.handoff,
        target.providerThreadId,
      );
      await resolvePortable(deps, ctx, transfer.id, handoff, target.providerThreadId);
      return { ...target, handoff, transferId: transfer.id };
    }
  }
}

/** Resolves the transfer with the handoff the run sends (recording a failed native fork). */
async function resolvePortable(
  deps: Deps,
  ctx: Ctx,
  transferId: ContextTransferId,
  handoff: SentHandoff,
  providerThreadId: ProviderThreadId,
) {
  const threadId = ctx.state.thread!.id;
  const fallback = ctx.nativeFailures.get(transferId);
  if (fallback) {
    await deps.repo.execute({
      type: "FallbackToPortable",
      data: { threadId, transferId, reason: fallback, contextHandoffId: handoff.handoffId },
    });
  } else {
    await deps.repo.execute({
      type: "ResolveContextTransfer",
      data: {
        threadId,
        transferId,
        resolution: { strategy: handoff.kind, contextHandoffId: handoff.handoffId },
      },
    });
  }
  await deps.repo.execute({
    type: "UpdateProviderThread",
    data: { threadId, providerThreadId, addHandoffIds: [handoff.handoffId] },
  });
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
