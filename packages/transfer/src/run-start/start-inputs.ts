import type {
  Checkpoint,
  ContextTransfer,
  Run,
  ThreadId,
  ThreadState,
  TurnItem,
} from "@skein/domain";
import { turnsThrough } from "@skein/domain";
import type { AsideRange } from "@skein/domain/run-number";
import type { NetDiff } from "../brief/net-diff.ts";

/** Everything transfer resolution and handoff building read, gathered from thread states. */
export type TransferInputs = {
  runs: Run[];
  turnItems: TurnItem[];
  checkpoints: Checkpoint[];
  lineage: ContextTransfer[];
  pendingTransfers: ContextTransfer[];
  /** Every thread state read (the target first): a native fork reads its source's turns. */
  threads: Map<ThreadId, ThreadState>;
  /** B16: the runs each read thread counts before its own (a fork's inherited ones). */
  runOffsets: Map<ThreadId, number>;
  /** E3: each read thread's runs that are not turns (they take no number). */
  asideRuns: Map<ThreadId, readonly AsideRange[]>;
  /** Issue 25 item 2: net diffs read from git for this start (`codeStateRequests`), if any. */
  netDiffs?: NetDiff[];
};

function orderedItems(state: ThreadState): TurnItem[] {
  return [...state.turnItems.values()].sort((a, b) => a.sortKey - b.sortKey).map((e) => e.item);
}

function orderedRuns(state: ThreadState): Run[] {
  const runs: Run[] = [];
  for (const id of state.runOrder) {
    const run = state.runs.get(id);
    if (run) runs.push(run);
  }
  return runs;
}

const isLineage = (transfer: ContextTransfer) =>
  (transfer.type === "fork" || transfer.type === "subagent_spawn") && transfer.status !== "pending";

/**
 * Collects the target thread's history plus that of every thread its pending transfers or its
 * fork/subagent lineage read from (a fork's full summary includes what it inherited). `load`
 * reads one thread's committed state; the walk itself decides nothing.
 */
export async function gatherTransferInputs(
  target: ThreadState,
  load: (threadId: ThreadId) => Promise<ThreadState>,
): Promise<TransferInputs> {
  const inputs: TransferInputs = {
    runs: [],
    turnItems: [],
    checkpoints: [],
    lineage: [],
    pendingTransfers: [],
    threads: new Map(),
    runOffsets: new Map(),
    asideRuns: new Map(),
  };
  const add = (state: ThreadState) => {
    if (!state.thread || inputs.threads.has(state.thread.id)) return false;
    inputs.threads.set(state.thread.id, state);
    inputs.runs.push(...orderedRuns(state));
    inputs.turnItems.push(...orderedItems(state));
    inputs.checkpoints.push(...state.checkpoints.values());
    return true;
  };
  add(target);
  const queue: ThreadId[] = [];
  for (const transfer of target.transfers.values()) {
    if (transfer.status === "pending") inputs.pendingTransfers.push(transfer);
    if (transfer.sourceThreadId !== target.thread?.id) queue.push(transfer.sourceThreadId);
    if (isLineage(transfer)) inputs.lineage.push(transfer);
  }
  while (queue.length > 0) {
    const id = queue.shift()!;
    if (inputs.threads.has(id)) continue;
    const state = await load(id);
    if (!add(state)) continue;
    for (const transfer of state.transfers.values()) {
      if (isLineage(transfer)) {
        inputs.lineage.push(transfer);
        queue.push(transfer.sourceThreadId);
      }
    }
  }
  for (const [id, state] of inputs.threads) {
    inputs.runOffsets.set(id, runOffset(id, inputs.threads));
    inputs.asideRuns.set(id, state.asideRuns);
  }
  return inputs;
}

/** Forks deeper than this are cut (a cycle in bad data must not hang a run start). */
const MAX_FORK_DEPTH = 64;

/**
 * Runs a person counts before a thread's own, as the UI numbers them: the fork's recorded offset,
 * or (forks recorded before it existed) the fork points summed up the lineage that was read.
 */
function runOffset(threadId: ThreadId, threads: ReadonlyMap<ThreadId, ThreadState>): number {
  let offset = 0;
  let at: ThreadId | undefined = threadId;
  for (let depth = 0; at !== undefined && depth < MAX_FORK_DEPTH; depth += 1) {
    const link: ThreadState["inheritance"] | undefined = threads.get(at)?.inheritance;
    if (!link) return offset;
    if (link.runOffset !== undefined) return offset + link.runOffset;
    // E3: the source's turns up to the fork point (its compaction/imported runs take no number).
    offset += turnsThrough(link.sourceRunOrdinal, threads.get(link.sourceThreadId)?.asideRuns);
    at = link.sourceThreadId;
  }
  return offset;
}

/** The history part of `resolveStartContext`'s input, the same for a run start and a preview. */
export function startContextHistory(state: ThreadState, inputs: TransferInputs) {
  return {
    pendingTransfers: inputs.pendingTransfers,
    providerThreads: [...state.providerThreads.values()],
    runs: inputs.runs,
    lineage: inputs.lineage,
    checkpoints: inputs.checkpoints,
    turnItems: inputs.turnItems,
    handoffs: [...state.handoffs.values()],
  };
}
