import {
  type Checkpoint,
  latestStablePoint,
  type ProviderKind,
  type Run,
  type ThreadState,
} from "@skein/domain";
import type { NetDiff, NetDiffSpan } from "../brief/net-diff.ts";
import type { HandoffTransfer } from "../handoff-types.ts";
import type { HandoffPlan } from "../resolution-types.ts";
import type { TransferInputs } from "./start-inputs.ts";

/**
 * Issue 25 item 2: a net diff the caller reads from git before a handoff is built, from `base`
 * (null: the thread's start) to `source`. The workflow deciding the handoff is pure, so once it
 * has resolved a handoff it asks for the diffs that handoff may want (`LoadCodeState`), and the
 * build picks the one matching what it covers.
 */
export type CodeStateRequest = { readonly source: Checkpoint; readonly base: Checkpoint | null };

const isRoot = (state: ThreadState | undefined, c: Checkpoint) =>
  state?.checkpointScopes.get(c.scopeId)?.kind === "root_run";

/** The ready root checkpoint a run ended with, if it was captured. */
function checkpointOfRun(inputs: TransferInputs, run: Run | undefined): Checkpoint | null {
  if (!run) return null;
  const state = inputs.threads.get(run.threadId);
  return (
    inputs.checkpoints.find(
      (c) => c.runId === run.id && c.status === "ready" && isRoot(state, c),
    ) ?? null
  );
}

/** A source point as the domain or a transfer draft holds it (ids branded or not). */
type LoosePoint = { readonly runId?: string | null; readonly checkpointId?: string | null };

function checkpointAt(inputs: TransferInputs, point: LoosePoint | null | undefined) {
  if (!point) return null;
  if (point.checkpointId) {
    const found = inputs.checkpoints.find((c) => c.id === point.checkpointId);
    return found?.status === "ready" ? found : null;
  }
  return checkpointOfRun(
    inputs,
    inputs.runs.find((r) => r.id === point.runId),
  );
}

/**
 * Which net diffs a start on `provider` may need: none unless the run carries context over (a
 * pending transfer, or a switch from the provider of the latest run), so ordinary turns read no
 * git. Sources are the latest stable points; bases the thread's start, a pending transfer's base
 * point, and the run the provider's own thread last saw (a return to it, T7).
 */
export function codeStateRequests(
  state: ThreadState,
  inputs: TransferInputs,
  provider: ProviderKind,
): CodeStateRequest[] {
  const threadId = state.thread?.id;
  if (!threadId) return [];
  const latest = latestStablePoint(state);
  const pending = inputs.pendingTransfers.filter((t) => t.targetThreadId === threadId);
  const switching = latest.run !== null && latest.run.provider !== provider;
  if (pending.length === 0 && !switching) return [];
  const requests: CodeStateRequest[] = [];
  const add = (source: Checkpoint | null, base: Checkpoint | null) => {
    if (!source || source.id === base?.id) return;
    if (requests.some((r) => r.source.id === source.id && r.base?.id === base?.id)) return;
    requests.push({ source, base });
  };
  const here = checkpointAt(inputs, latest.point);
  add(here, null);
  const seen = [...state.providerThreads.values()].find(
    (p) => p.provider === provider && p.lastRunOrdinal !== null,
  );
  if (seen) {
    const run = inputs.runs.find(
      (r) => r.threadId === threadId && r.ordinal === seen.lastRunOrdinal,
    );
    add(here, checkpointOfRun(inputs, run));
  }
  for (const transfer of pending) {
    const source = checkpointAt(inputs, transfer.sourcePoint);
    add(source, null);
    add(source, checkpointAt(inputs, transfer.basePoint));
  }
  return requests;
}

/**
 * The net diff a plan's handoff shows, among those read: from the checkpoint before its first
 * covered run (a delta; the transfer's base point when that run is its thread's first; the
 * thread's start for a whole-thread summary) to the last covered run's. Null when it was not
 * read (no checkpoints, a capture still pending): the runs' own file changes stand in.
 */
export function netDiffFor(
  inputs: Pick<TransferInputs, "runs" | "checkpoints"> & Partial<TransferInputs>,
  transfer: HandoffTransfer,
  plan: Pick<HandoffPlan, "strategy" | "selection">,
): { diff: NetDiff; span: NetDiffSpan } | null {
  const read = inputs.netDiffs;
  if (!read?.length || !inputs.threads || plan.strategy === "manual_context") return null;
  const full = inputs as TransferInputs;
  const runAt = (threadId: string, ordinal: number | undefined) =>
    ordinal === undefined
      ? undefined
      : inputs.runs.find((r) => r.threadId === threadId && r.ordinal === ordinal);
  const last = plan.selection.at(-1);
  const first = plan.selection[0];
  if (!last || !first) return null;
  const lastRun = runAt(last.threadId, last.ordinals.at(-1));
  const source = checkpointOfRun(full, lastRun);
  if (!source) return null;
  let base: Checkpoint | null = null;
  if (plan.strategy !== "full_thread_summary") {
    const firstOrdinal = first.ordinals[0] ?? 1;
    const before = runAt(first.threadId, firstOrdinal - 1);
    base = before ? checkpointOfRun(full, before) : checkpointAt(full, transfer.basePoint);
    if (!base && (before || transfer.basePoint)) return null;
  }
  const diff = read.find(
    (d) => d.sourceCheckpointId === source.id && d.baseCheckpointId === (base?.id ?? null),
  );
  if (!diff) return null;
  // Named as the runs they ended (the text numbers runs; checkpoints are not shown).
  const ref = (c: Checkpoint | null) => {
    const run = c ? inputs.runs.find((r) => r.id === c.runId) : undefined;
    return run ? { threadId: run.threadId, ordinal: run.ordinal } : null;
  };
  return { diff, span: { from: ref(base), to: ref(source) } };
}
