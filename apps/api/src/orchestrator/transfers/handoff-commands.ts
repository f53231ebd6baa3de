import {
  asId,
  type ContextHandoff,
  type ContextHandoffId,
  type ContextTransfer,
  type ContextTransferId,
  ConflictError,
  currentHandoffOf,
  HandoffPayload,
  type HandoffWriter,
  type IdSource,
  NotFoundError,
  PreconditionFailedError,
  projectSettingsOf,
  type ProviderKind,
  requireHandoffChangeable,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import {
  buildHandoff,
  buildPlannedHandoff,
  gatherTransferInputs,
  type HandoffBuild,
  planPreview,
  type RunSegment,
  type TransferCapabilities,
  type TransferInputs,
} from "@skein/transfer";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { CommandContext } from "../commands/command-gate.ts";
import { providerAuthored } from "./provider-authored.ts";
import type { SummaryWriter } from "./side-turn-summary.ts";
import type { NetDiffReader } from "./net-diffs.ts";

export type HandoffDeps = {
  repo: AggregateRepository;
  ids: IdSource;
  /** Capabilities of a configured provider's adapter, null when it is not configured. */
  capabilities(provider: ProviderKind): TransferCapabilities | null;
  /** Issue 25: runs the source provider's side turn that writes a handoff, when it can. */
  summaries?: SummaryWriter;
  /** Issue 25 item 2: git's net diffs, so a preview shows the state of the work as a run would. */
  netDiffs?: NetDiffReader;
};

type Receipt = { handoffId: ContextHandoffId; sequence: number };
type Target = { threadId: ThreadId; transferId: ContextTransferId; command?: CommandContext };

async function load(deps: HandoffDeps, target: Target) {
  const state = await deps.repo.thread(target.threadId);
  const transfer = state.transfers.get(target.transferId);
  if (!transfer) throw new NotFoundError("transfer", target.transferId);
  // Refuse before building anything; the domain refuses the same way (CONFLICT) at append.
  requireHandoffChangeable(transfer);
  return { state, transfer, current: currentHandoffOf(state, transfer.id) };
}

/**
 * Who writes a previewed handoff (issue 25 item 3): the writer the request names wins, else the
 * project's `handoffWriter` setting, else Skein's builder.
 */
export async function writerFor(
  deps: HandoffDeps,
  state: ThreadState,
  named: HandoffWriter | undefined,
): Promise<HandoffWriter> {
  if (named) return named;
  const { project } = await deps.repo.project(state.thread!.projectId);
  return (project && projectSettingsOf(project).handoffWriter) ?? "skein";
}

/** A preview targets the provider the user picked, else the transfer's, else the thread's. */
async function previewPlan(
  deps: HandoffDeps,
  state: ThreadState,
  transfer: ContextTransfer,
  provider: ProviderKind | null,
) {
  const chosen = provider ?? transfer.targetProvider ?? state.thread!.defaultProvider;
  const capabilities = deps.capabilities(chosen);
  if (!capabilities) {
    throw new PreconditionFailedError(`provider ${chosen} is not configured on this server`);
  }
  const inputs = await withNetDiffs(deps, state, chosen);
  return {
    inputs,
    provider: chosen,
    plan: planPreview(state, inputs, transfer, chosen, capabilities),
    historyTool: capabilities.appOwnedTools === true,
  };
}

/** The transfer inputs of `state`, with the net diffs a handoff on `provider` may show. */
export async function withNetDiffs(
  deps: HandoffDeps,
  state: ThreadState,
  provider: ProviderKind,
): Promise<TransferInputs> {
  const load = async () => ({
    state,
    inputs: await gatherTransferInputs(state, (id) => deps.repo.thread(id)),
  });
  const loaded = await load();
  return deps.netDiffs ? (await deps.netDiffs(loaded, provider, load)).inputs : loaded.inputs;
}

async function execute(
  deps: HandoffDeps,
  target: Target,
  command: Parameters<AggregateRepository["execute"]>[0],
  handoffId: ContextHandoffId,
): Promise<Receipt> {
  const result = await deps.repo.execute(
    command,
    target.command?.answer({ handoffId }) ?? { receipt: { handoffId } },
  );
  return { ...(result.receipt as { handoffId: ContextHandoffId }), sequence: result.sequence };
}

/** A handoff for a transfer no run has resolved yet (a generated preview or the user's text). */
function previewCommand(
  target: Target,
  handoffId: ContextHandoffId,
  transfer: ContextTransfer,
  build: Pick<
    HandoffBuild,
    "kind" | "strategy" | "fromProviderThreadIds" | "coveredRunOrdinals" | "summaryText" | "payload"
  >,
): Parameters<AggregateRepository["execute"]>[0] {
  return {
    type: "PreviewHandoff",
    data: {
      threadId: target.threadId,
      handoffId,
      transferId: transfer.id,
      kind: build.kind,
      strategy: build.strategy,
      fromProviderThreadIds: build.fromProviderThreadIds.map((id) => asId("providerThread", id)),
      coveredRunOrdinals: build.coveredRunOrdinals ?? { from: 1, to: 1 },
      summaryText: build.summaryText,
      payload: HandoffPayload.parse(build.payload),
    },
  };
}

/**
 * `handoff.regenerate`: on a pending transfer, (re)builds the handoff its next run would send
 * on `provider` (a preview, issue 8); on a resolved one, rebuilds the current handoff with the
 * same strategy and coverage. The new handoff supersedes the old; consumed transfers refuse.
 */
export async function regenerateHandoff(
  deps: HandoffDeps,
  target: Target,
  provider: ProviderKind | null,
  named?: HandoffWriter,
): Promise<Receipt> {
  const { state, transfer, current } = await load(deps, target);
  const handoffId = deps.ids.next("handoff");
  if (transfer.status !== "pending") {
    if (!current) throw new ConflictError(`transfer ${transfer.id} is ${transfer.status}`);
    return rebuildInPlace(deps, target, state, transfer, current, handoffId);
  }
  const chosen = provider ?? current?.payload.targetProvider ?? null;
  const {
    inputs,
    plan,
    provider: built,
    historyTool,
  } = await previewPlan(deps, state, transfer, chosen);
  const generated = buildPlannedHandoff(
    inputs,
    transfer,
    plan,
    built,
    null,
    null,
    null,
    historyTool,
  );
  const writer = await writerFor(deps, state, named);
  const build =
    writer === "provider" && generated.strategy !== "manual_context"
      ? { ...generated, ...(await providerAuthored(deps, inputs, generated)) }
      : generated;
  const payload = HandoffPayload.parse(build.payload);
  const fromProviderThreadIds = build.fromProviderThreadIds.map((id) => asId("providerThread", id));
  const coveredRunOrdinals = build.coveredRunOrdinals ?? { from: 1, to: 1 };
  if (current) {
    const strategy = build.strategy === "manual_context" ? undefined : build.strategy;
    return execute(
      deps,
      target,
      {
        type: "RegenerateHandoff",
        data: {
          threadId: target.threadId,
          handoffId: current.id,
          newHandoffId: handoffId,
          kind: build.kind,
          ...(strategy ? { strategy } : {}),
          coveredRunOrdinals,
          fromProviderThreadIds,
          summaryText: build.summaryText,
          payload,
        },
      },
      handoffId,
    );
  }
  return execute(deps, target, previewCommand(target, handoffId, transfer, build), handoffId);
}

/**
 * `handoff.edit`: the user's text becomes the transfer's handoff (`manual_context`). Without a
 * handoff yet, it is recorded directly with the coverage a preview would have had, so the
 * inspector still says which runs it stands in for.
 */
export async function editHandoff(
  deps: HandoffDeps,
  target: Target,
  text: string,
): Promise<Receipt> {
  const { state, transfer, current } = await load(deps, target);
  const handoffId = deps.ids.next("handoff");
  if (current) {
    return execute(
      deps,
      target,
      {
        type: "EditHandoff",
        data: {
          threadId: target.threadId,
          handoffId: current.id,
          newHandoffId: handoffId,
          summaryText: text,
        },
      },
      handoffId,
    );
  }
  if (transfer.status !== "pending") {
    throw new ConflictError(`transfer ${transfer.id} is ${transfer.status}`);
  }
  const { inputs, plan, provider } = await previewPlan(deps, state, transfer, null);
  const manual = { ...plan, strategy: "manual_context" as const, manualText: text };
  const build = {
    ...buildPlannedHandoff(inputs, transfer, manual, provider, null, null),
    strategy: "manual_context" as const,
    summaryText: text,
  };
  return execute(deps, target, previewCommand(target, handoffId, transfer, build), handoffId);
}

/** A resolved (not yet consumed) transfer keeps its strategy and coverage; only text is rebuilt. */
async function rebuildInPlace(
  deps: HandoffDeps,
  target: Target,
  state: ThreadState,
  transfer: ContextTransfer,
  current: ContextHandoff,
  handoffId: ContextHandoffId,
): Promise<Receipt> {
  const inputs: TransferInputs = await gatherTransferInputs(state, (id) => deps.repo.thread(id));
  const selection: RunSegment[] = current.payload.coverage.map((c) => ({
    threadId: c.threadId,
    ordinals: c.runs.flatMap((r) =>
      Array.from({ length: r.to - r.from + 1 }, (_, i) => r.from + i),
    ),
  }));
  const strategy = current.strategy === "manual_context" ? "full_thread_summary" : current.strategy;
  const build = buildHandoff({
    strategy,
    kind: current.kind,
    transfer,
    selection,
    runs: inputs.runs,
    turnItems: inputs.turnItems,
    runOffsets: inputs.runOffsets,
    asideRuns: inputs.asideRuns,
    targetProvider: current.payload.targetProvider,
    toProviderThreadId: current.toProviderThreadId,
    checkpoint: current.payload.checkpoint
      ? (inputs.checkpoints.find((c) => c.id === current.payload.checkpoint?.checkpointId) ?? null)
      : null,
  });
  return execute(
    deps,
    target,
    {
      type: "RegenerateHandoff",
      data: {
        threadId: target.threadId,
        handoffId: current.id,
        newHandoffId: handoffId,
        summaryText: build.summaryText,
        payload: HandoffPayload.parse(build.payload),
        strategy,
        ...(build.coveredRunOrdinals ? { coveredRunOrdinals: build.coveredRunOrdinals } : {}),
        fromProviderThreadIds: build.fromProviderThreadIds.map((id) => asId("providerThread", id)),
      },
    },
    handoffId,
  );
}
