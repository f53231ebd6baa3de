import {
  asId,
  type Command,
  type ContextHandoff,
  type ContextHandoffKind,
  type ContextSourcePoint,
  type ContextTransferId,
  HandoffPayload,
  type IdSource,
  type ProviderThreadId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { HandoffTransfer } from "../handoff-types.ts";
import type { ContextSourcePoint as PlainPoint } from "../inputs.ts";
import type { HandoffPlan, TransferRef } from "../resolution-types.ts";
import { buildPlannedHandoff, previewMismatch, previewOf } from "./handoff-preview.ts";
import type { TransferInputs } from "./start-inputs.ts";
import type { RunStartState, SentHandoff } from "./types.ts";

/** What settling a start's context reads: the run, the thread as committed, its history. */
export type Ready = {
  threadId: ThreadId;
  run: NonNullable<RunStartState["request"]>["run"];
  text: string;
  state: ThreadState;
  inputs: TransferInputs;
  providerSessionId: NonNullable<RunStartState["runtime"]>["providerSessionId"];
  failures: RunStartState["failures"];
  /** The run's provider offers app-owned tools, so its handoff offers `skein_history`. */
  historyTool: boolean;
};
type Handoff = SentHandoff & { kind: ContextHandoffKind };
/** The commands that settle the transfer, the handoff the run sends, the transfer it consumes. */
export type Settled = {
  commands: Command[];
  handoff: Handoff | null;
  transferId: ContextTransferId | null;
};

/** Nothing to carry over: a user's edited text is still sent; anything else is superseded. */
export function settleNothing(
  r: Ready,
  transferRef: string | null,
  providerThreadId: ProviderThreadId,
): Settled {
  if (!transferRef) return { commands: [], handoff: null, transferId: null };
  const transferId = asId("transfer", transferRef);
  const found = previewOf(r.state, transferId);
  if (found?.strategy === "manual_context") {
    const handoff = sent(found);
    const commands = [
      bind(r, found, providerThreadId),
      ...resolve(r, transferId, handoff, providerThreadId),
    ];
    return { commands, handoff, transferId };
  }
  const commands: Command[] = [];
  if (found) commands.push(supersede(r, found, "nothing to carry over"));
  // A transfer whose source point holds nothing to carry over (e.g. a fork of an empty thread).
  commands.push({ type: "SupersedeContextTransfer", data: { threadId: r.threadId, transferId } });
  return { commands, handoff: null, transferId: null };
}

/**
 * The handoff a portable/delta start sends (T3, T6–T8, issue 8): the user's edit always; a
 * generated preview when it is what this run would build anyway; otherwise a fresh build, with
 * the stale preview superseded so the inspector never shows text nobody received.
 */
export function settlePortable(
  r: Ready,
  transfer: HandoffTransfer & { id: ContextTransferId },
  found: ContextHandoff | null,
  plan: HandoffPlan,
  providerThreadId: ProviderThreadId,
  ids: IdSource,
): Settled {
  const commands: Command[] = [];
  let handoff: Handoff | null = null;
  if (found) {
    const stale = found.targetRunId !== null && found.targetRunId !== r.run.id;
    const reason =
      found.strategy === "manual_context"
        ? null
        : stale
          ? "built for an earlier run that never started"
          : previewMismatch(found, plan, r.run.provider);
    if (reason === null) {
      commands.push(bind(r, found, providerThreadId));
      handoff = sent(found);
    } else {
      commands.push(supersede(r, found, reason));
    }
  }
  if (!handoff) {
    const build = buildPlannedHandoff(
      r.inputs,
      transfer,
      plan,
      r.run.provider,
      providerThreadId,
      r.text,
      rebuildReasonOf(r.failures),
      r.historyTool,
    );
    const handoffId = ids.next("handoff");
    commands.push({
      type: "RecordHandoff",
      data: {
        threadId: r.threadId,
        handoffId,
        transferId: transfer.id,
        targetRunId: r.run.id,
        kind: build.kind,
        strategy: build.strategy,
        fromProviderThreadIds: build.fromProviderThreadIds.map((id) => asId("providerThread", id)),
        toProviderThreadId: providerThreadId,
        coveredRunOrdinals: build.coveredRunOrdinals ?? { from: 1, to: 1 },
        summaryText: build.summaryText,
        // Parsing brands transfer's plain-string ids and checks the payload against the schema.
        payload: HandoffPayload.parse(build.payload),
        createdByProvider: null,
        status: "ready",
      },
    });
    handoff = { handoffId, text: build.summaryText, kind: build.kind };
  }
  commands.push(...resolve(r, transfer.id, handoff, providerThreadId));
  return { commands, handoff, transferId: transfer.id };
}

/** Why the previous provider thread could not go on, as the runtime said it (newest first). */
function rebuildReasonOf(failures: Ready["failures"]): string | null {
  for (const failure of [...failures].reverse()) {
    if (failure.kind === "provider_thread" && failure.detail) return failure.detail;
  }
  return null;
}

/** Resolves the transfer with the handoff the run sends (recording a failed native fork). */
function resolve(
  r: Ready,
  transferId: ContextTransferId,
  handoff: Handoff,
  providerThreadId: ProviderThreadId,
): Command[] {
  const fallback = r.failures.find((f) => f.kind === "native_fork" && f.transferId === transferId);
  const threadId = r.threadId;
  const resolved: Command =
    fallback?.kind === "native_fork"
      ? {
          type: "FallbackToPortable",
          data: {
            threadId,
            transferId,
            reason: fallback.reason,
            contextHandoffId: handoff.handoffId,
          },
        }
      : {
          type: "ResolveContextTransfer",
          data: {
            threadId,
            transferId,
            resolution: { strategy: handoff.kind, contextHandoffId: handoff.handoffId },
          },
        };
  return [
    resolved,
    {
      type: "UpdateProviderThread",
      data: { threadId, providerThreadId, addHandoffIds: [handoff.handoffId] },
    },
  ];
}

/** The pending transfer a portable/delta start resolves, or the provider_handoff it records. */
export function transferOf(r: Ready, ref: TransferRef, ids: IdSource) {
  if (ref.kind === "existing") {
    const transfer = r.state.transfers.get(asId("transfer", ref.transferId));
    if (!transfer) throw new Error(`transfer ${ref.transferId} is not on thread ${r.threadId}`);
    return { transfer, create: null };
  }
  const id = ids.next("transfer");
  const { draft } = ref;
  const basePoint = draft.basePoint ? brandPoint(draft.basePoint) : null;
  const create: Command = {
    type: "CreateContextTransfer",
    data: {
      threadId: r.threadId,
      transferId: id,
      type: draft.type,
      sourceThreadId: asId("thread", draft.sourceThreadId),
      sourcePoint: brandPoint(draft.sourcePoint),
      basePoint,
      sourceProvider: draft.sourceProvider,
      targetProvider: draft.targetProvider,
      createdBy: "system",
      targetRunId: r.run.id,
    },
  };
  const transfer = {
    id,
    type: draft.type,
    sourceThreadId: draft.sourceThreadId,
    targetThreadId: r.threadId,
    basePoint,
  };
  return { transfer, create };
}

/** Transfer works on plain-string ids; brand (and check) them on the way into the domain. */
function brandPoint(point: PlainPoint): ContextSourcePoint {
  return {
    threadId: asId("thread", point.threadId),
    runId: point.runId ? asId("run", point.runId) : null,
    checkpointId: point.checkpointId ? asId("checkpoint", point.checkpointId) : null,
    turnItemId: point.turnItemId ? asId("item", point.turnItemId) : null,
    providerThreadRef: point.providerThreadRef ?? null,
    providerTurnRef: point.providerTurnRef ?? null,
  };
}

const sent = (h: ContextHandoff): Handoff => ({
  handoffId: h.id,
  text: h.summaryText,
  kind: h.kind,
});

function bind(r: Ready, preview: ContextHandoff, providerThreadId: ProviderThreadId): Command {
  return {
    type: "BindHandoff",
    data: { threadId: r.threadId, handoffId: preview.id, runId: r.run.id, providerThreadId },
  };
}

export function supersede(r: Ready, preview: ContextHandoff, reason: string): Command {
  return {
    type: "SupersedeHandoff",
    data: { threadId: r.threadId, handoffId: preview.id, reason },
  };
}
