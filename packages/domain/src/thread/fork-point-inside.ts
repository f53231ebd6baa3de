import { NotFoundError, PreconditionFailedError } from "../errors.ts";
import type { NodeId, ProviderThreadId, TurnItemId } from "../ids.ts";
import { heldValues } from "../state/partial-map.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { pointAtSettledRun, type ResolvedPoint } from "./settled-point.ts";
import { requireEntity } from "./guards.ts";

/** Items a run gains after its turn ended; they carry no conversation a provider would hold. */
const AFTER_TURN = new Set(["checkpoint"]);

/**
 * E12: a point right after one turn item of a settled run. P7 cuts the inherited items there; the
 * provider context is the run up to and including the item. A native fork can only cut at a
 * turn's end (C1), so a point before the turn's end has no native turn ref and resolves portably.
 */
export function pointAtItem(s: ThreadState, turnItemId: TurnItemId): ResolvedPoint {
  const entry = requireEntity(s.turnItems, turnItemId, "TurnItem");
  const runId = entry.item.runId;
  if (runId === null) {
    throw new PreconditionFailedError(
      `turn item ${turnItemId} (${entry.item.type}) belongs to no run; fork from a run's item`,
    );
  }
  const resolved = pointAtSettledRun(s, runId);
  // The item is held, so every item of its run is too (a compact state keeps runs whole).
  let endsTurn = true;
  for (const other of heldValues(s.turnItems)) {
    if (other.item.runId !== runId || other.sortKey <= entry.sortKey) continue;
    if (!AFTER_TURN.has(other.item.type)) endsTurn = false;
  }
  return {
    run: resolved.run,
    cutoffSortKey: entry.sortKey,
    point: {
      ...resolved.point,
      turnItemId,
      providerTurnRef: endsTurn ? resolved.point.providerTurnRef : null,
    },
  };
}

/** E12: a point right after an execution node: its item, or its whole run for a root turn. */
export function pointAtNode(s: ThreadState, nodeId: NodeId): ResolvedPoint {
  const node = requireEntity(s.nodes, nodeId, "ExecutionNode");
  if (node.runId === null) {
    throw new PreconditionFailedError(`node ${nodeId} (${node.kind}) belongs to no run`);
  }
  if (node.kind === "root_turn") return pointAtSettledRun(s, node.runId);
  const itemId = s.itemBySubject.get(nodeId);
  if (itemId === undefined) {
    throw new PreconditionFailedError(
      `node ${nodeId} (${node.kind}) is not part of this thread's conversation (a sub-agent's or a hidden node); fork from its run or its child thread`,
    );
  }
  return pointAtItem(s, itemId);
}

/** Provider thread states a fork may start from: nothing runs on them. */
const IDLE = new Set(["idle", "not_loaded"]);

/**
 * E9/E12: the end of an idle provider thread's coverage: its last run, with that provider
 * thread's native refs, so the same provider forks it natively (e.g. the Codex thread of runs
 * 1–5 after the conversation moved on to Claude).
 */
export function pointAtProviderThread(
  s: ThreadState,
  providerThreadId: ProviderThreadId,
): ResolvedPoint {
  const providerThread = s.providerThreads.get(providerThreadId);
  if (providerThread === undefined || providerThread.appThreadId !== s.thread?.id) {
    throw new NotFoundError("ProviderThread", providerThreadId);
  }
  if (!IDLE.has(providerThread.status)) {
    throw new PreconditionFailedError(
      `provider thread ${providerThreadId} is ${providerThread.status}; a fork needs an idle one`,
    );
  }
  const ordinal = providerThread.lastRunOrdinal;
  const runId = ordinal === null ? undefined : s.runOrder[ordinal - 1];
  if (runId === undefined) {
    throw new PreconditionFailedError(`provider thread ${providerThreadId} has run no turn yet`);
  }
  const resolved = pointAtSettledRun(s, runId);
  const run = resolved.run;
  const sameThread = run?.providerThreadId === providerThreadId;
  return {
    ...resolved,
    point: {
      ...resolved.point,
      providerThreadRef: providerThread.nativeThreadRef,
      providerTurnRef: sameThread ? resolved.point.providerTurnRef : null,
    },
  };
}
