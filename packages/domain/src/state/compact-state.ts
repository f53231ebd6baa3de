import type { RunId } from "../ids.ts";
import { isSettledRun } from "./run-caches.ts";
import {
  HistoryNeeded,
  heldEntries,
  heldValue,
  type KeyFilter,
  LeftOutKeys,
  PartialMap,
} from "./partial-map.ts";
import { restoreState, serializeState } from "./state-snapshot.ts";
import type { ThreadState } from "./thread-state.ts";

/**
 * Issue 20 (item 3): a thread's state without its settled history, so loading it costs the same
 * on a 10,000-run thread as on a 10-run one. Every map whose entries belong to runs keeps only
 * the recent and unsettled runs' entries and comes back as a `PartialMap`: anything left out
 * throws `HistoryNeeded`, and the caller loads the full state instead, so a compact state never
 * answers differently from the full one — it only answers less.
 */

/** Settled runs kept besides the unsettled ones and the cached latest ones. */
const RECENT_RUNS = 1;

type AnyMap = Map<unknown, unknown>;

/**
 * The maps a compact state prunes; the rest (provider threads, transfers and handoffs, caches per
 * provider thread, sets, scalars) stay whole: they grow with switches and forks, not with runs.
 */
const PRUNED = [
  "runs",
  "attempts",
  "nodes",
  "messages",
  "plans",
  "providerTurns",
  "requests",
  "checkpointScopes",
  "checkpoints",
  "turnItems",
  "pendingRequestsByRun",
  "openNodesByRun",
  "attemptIdsByRun",
  "nodeIdsByRun",
  "maxItemSortKeyByRun",
  "itemBySubject",
  "messageByNode",
  "planByNode",
  "nodeByNativeRef",
  "checkpointCountByScope",
  "childScopeCount",
] as const satisfies readonly (keyof ThreadState)[];

type Pruned = (typeof PRUNED)[number];

function keptRuns(s: ThreadState): Set<RunId> {
  const kept = new Set<RunId>();
  const add = (id: RunId | null | undefined) => {
    if (id && heldValue(s.runs, id)) kept.add(id);
  };
  for (let i = Math.max(0, s.runOrder.length - RECENT_RUNS); i < s.runOrder.length; i += 1) {
    add(s.runOrder[i]);
  }
  add(s.activeRunId);
  add(s.latestCompletedRunId);
  add(s.latestStableRunId);
  add(s.lastSettledRunId);
  for (const id of s.queuedRunIds) add(id);
  for (const [id] of heldEntries(s.openNodesByRun)) add(id);
  for (const [id] of heldEntries(s.pendingRequestsByRun)) add(id);
  for (const [id, run] of heldEntries(s.runs)) if (!isSettledRun(run)) add(id);
  return kept;
}

function filterMap<K, V>(map: Map<K, V>, keep: (key: K, value: V) => boolean): Map<K, V> {
  const out = new Map<K, V>();
  for (const [key, value] of heldEntries(map)) if (keep(key, value)) out.set(key, value);
  return out;
}

/** The compact state's maps: what belongs to the kept runs, or to no run. */
function prune(s: ThreadState): Record<Pruned, AnyMap> {
  const runs = keptRuns(s);
  const byRun = (runId: RunId | null) => runId === null || runs.has(runId);
  const nodes = filterMap(s.nodes, (_id, node) => byRun(node.runId));
  const scopes = filterMap(s.checkpointScopes, (_id, scope) => byRun(scope.runId));
  const turnItems = filterMap(s.turnItems, (_id, entry) => byRun(entry.item.runId));
  return {
    runs: filterMap(s.runs, (id) => runs.has(id)),
    attempts: filterMap(s.attempts, (_id, attempt) => byRun(attempt.runId)),
    nodes,
    messages: filterMap(s.messages, (_id, message) => byRun(message.runId)),
    plans: filterMap(s.plans, (_id, plan) => byRun(plan.runId)),
    providerTurns: filterMap(s.providerTurns, (_id, turn) => nodes.has(turn.nodeId)),
    // Every pending request stays: a run start scans them (expireStrandedRequests).
    requests: filterMap(
      s.requests,
      (_id, request) => request.status === "pending" || byRun(request.runId),
    ),
    checkpointScopes: scopes,
    checkpoints: filterMap(s.checkpoints, (_id, checkpoint) => byRun(checkpoint.runId)),
    turnItems,
    pendingRequestsByRun: filterMap(s.pendingRequestsByRun, (id) => runs.has(id)),
    openNodesByRun: filterMap(s.openNodesByRun, (id) => runs.has(id)),
    attemptIdsByRun: filterMap(s.attemptIdsByRun, (id) => runs.has(id)),
    nodeIdsByRun: filterMap(s.nodeIdsByRun, (id) => runs.has(id)),
    maxItemSortKeyByRun: filterMap(s.maxItemSortKeyByRun, (id) => runs.has(id)),
    itemBySubject: filterMap(s.itemBySubject, (_subject, itemId) => turnItems.has(itemId)),
    messageByNode: filterMap(s.messageByNode, (nodeId) => nodes.has(nodeId)),
    planByNode: filterMap(s.planByNode, (nodeId) => nodes.has(nodeId)),
    nodeByNativeRef: filterMap(s.nodeByNativeRef, (_ref, nodeId) => nodes.has(nodeId)),
    checkpointCountByScope: filterMap(s.checkpointCountByScope, (id) => scopes.has(id)),
    childScopeCount: filterMap(s.childScopeCount, (id) => scopes.has(id)),
  };
}

const COMPACT_MARK = "compact:";

/**
 * A full thread state as a compact snapshot text. Only a full state knows every key it leaves
 * out, so a compact state cannot be compacted again (it throws `HistoryNeeded`).
 */
export function serializeCompactState(s: ThreadState): string {
  const { text, leftOut } = compactStateWithKeys(s);
  const newline = text.indexOf("\n");
  return `${text.slice(0, newline)}${LeftOutKeys.of([...leftOut]).toText()}${text.slice(newline)}`;
}

/**
 * For a process that keeps the compact state itself (B8 past-read checkpoints): its text without
 * a filter, and the exact keys left out, so a restore never mistakes a new key for history.
 * A compact state (restored and continued) can be compacted again only with the exact keys its
 * restore left out (`leftBefore`): what it left out then is still missing, so it stays listed.
 */
export function compactStateWithKeys(
  s: ThreadState,
  leftBefore?: ReadonlySet<string>,
): { text: string; leftOut: Set<string> } {
  if (isCompactState(s) && !leftBefore) throw new HistoryNeeded("every entry");
  const pruned = prune(s);
  // One key can be left out of several maps (a run id keys five of them): the filter holds it once.
  const leftOut = new Set<string>(leftBefore ?? []);
  for (const key of PRUNED) {
    const kept = pruned[key];
    for (const [k] of heldEntries(s[key] as AnyMap)) if (!kept.has(k)) leftOut.add(String(k));
  }
  return {
    text: `${COMPACT_MARK}\n${serializeState({ ...s, ...pruned } as ThreadState)}`,
    leftOut,
  };
}

/**
 * The compact state a `serializeCompactState` text holds, or null (then load the full one).
 * `exactLeftOut`: the keys a `compactStateWithKeys` text left out, instead of its filter.
 */
export function restoreCompactState(
  text: string,
  exactLeftOut?: ReadonlySet<string>,
): ThreadState | null {
  if (!text.startsWith(COMPACT_MARK)) return null;
  const newline = text.indexOf("\n");
  if (newline < 0) return null;
  const state = restoreState(text.slice(newline + 1), "thread") as ThreadState | null;
  if (!state) return null;
  const leftOut: KeyFilter = exactLeftOut
    ? { mayHold: (key) => exactLeftOut.has(String(key)) }
    : LeftOutKeys.fromText(text.slice(COMPACT_MARK.length, newline));
  const record = state as unknown as Record<Pruned, AnyMap>;
  for (const key of PRUNED) {
    const map = new PartialMap(heldEntries(record[key]));
    map.leftOut = leftOut;
    record[key] = map;
  }
  return state;
}

/** Whether a thread state is compact (some of its maps partial). */
export function isCompactState(s: ThreadState): boolean {
  return s.runs instanceof PartialMap;
}
