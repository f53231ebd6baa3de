import type {
  Checkpoint,
  ContextSourcePoint,
  ContextTransfer,
  Run,
  ThreadId,
  TurnItem,
} from "./inputs.ts";

/**
 * Runs of one thread that a handoff covers, by ordinal (ascending). `throughItemId` cuts the last
 * run right after that turn item (E12: a source point inside a run); absent, runs are whole.
 */
export type RunSegment = {
  readonly threadId: ThreadId;
  readonly ordinals: readonly number[];
  readonly throughItemId?: TurnItem["id"];
};

/**
 * Whether a run is part of the conversation a provider must know about. Active runs are not
 * progress yet (the run being started is one of them); cancelled and rolled-back runs never
 * happened for the conversation; a failed run counts only if it reached a provider thread, since
 * one that failed before provider work left nothing for another provider to learn.
 */
export function isCountedRun(run: Run): boolean {
  if (run.status === "completed" || run.status === "interrupted") return true;
  return run.status === "failed" && run.providerThreadId !== null;
}

/** Counted runs of a thread, ascending by ordinal. */
export function countedRunsOf(runs: readonly Run[], threadId: ThreadId): Run[] {
  return runs
    .filter((run) => run.threadId === threadId && isCountedRun(run))
    .sort((a, b) => a.ordinal - b.ordinal);
}

export function latestOrdinal(counted: readonly Run[]): number | null {
  const last = counted[counted.length - 1];
  return last === undefined ? null : last.ordinal;
}

export type LocatedPoint =
  | { readonly ok: true; readonly threadId: ThreadId; readonly ordinal: number | null }
  | {
      readonly ok: false;
      readonly reason: "source_point_not_found" | "source_point_unstable";
      readonly detail: string;
    };

export type PointLookup = {
  readonly runs: readonly Run[];
  readonly checkpoints: readonly Checkpoint[];
  readonly turnItems: readonly TurnItem[];
};

function locateRun(point: ContextSourcePoint, run: Run | undefined, via: string): LocatedPoint {
  if (run === undefined || run.threadId !== point.threadId) {
    return {
      ok: false,
      reason: "source_point_not_found",
      detail: `${via} is not a run of thread ${point.threadId} in the given runs`,
    };
  }
  if (!isCountedRun(run)) {
    // T2: never transfer from a run that is still streaming or that no longer counts.
    return {
      ok: false,
      reason: "source_point_unstable",
      detail: `run ${run.id} (ordinal ${run.ordinal}) is ${run.status}, not a stable source point`,
    };
  }
  return { ok: true, threadId: point.threadId, ordinal: run.ordinal };
}

/**
 * Resolves a source point to the run ordinal it stands for, most specific ref first. A point
 * with no run, checkpoint or turn item stands for the thread's start (ordinal null).
 */
export function locatePoint(point: ContextSourcePoint, lookup: PointLookup): LocatedPoint {
  if (point.runId) {
    const run = lookup.runs.find((r) => r.id === point.runId);
    return locateRun(point, run, `run ${point.runId}`);
  }
  if (point.checkpointId) {
    const checkpoint = lookup.checkpoints.find((c) => c.id === point.checkpointId);
    if (checkpoint === undefined || checkpoint.appRunOrdinal === null) {
      return {
        ok: false,
        reason: "source_point_not_found",
        detail: `checkpoint ${point.checkpointId} is unknown or has no app run ordinal`,
      };
    }
    const ordinal = checkpoint.appRunOrdinal;
    const run =
      checkpoint.runId !== null
        ? lookup.runs.find((r) => r.id === checkpoint.runId)
        : lookup.runs.find((r) => r.threadId === point.threadId && r.ordinal === ordinal);
    return locateRun(point, run, `checkpoint ${point.checkpointId}`);
  }
  if (point.turnItemId) {
    const item = lookup.turnItems.find((i) => i.id === point.turnItemId);
    const run = item?.runId ? lookup.runs.find((r) => r.id === item.runId) : undefined;
    return locateRun(point, run, `turn item ${point.turnItemId}`);
  }
  return { ok: true, threadId: point.threadId, ordinal: null };
}

const SEED_TYPES = new Set(["fork", "subagent_spawn"]);
const APPLIED_STATUSES = new Set(["resolved_native", "resolved_portable", "consumed"]);

/**
 * The conversation a thread shows up to `upTo`: the history it inherited through the fork or
 * subagent_spawn transfer that created it (recursively, from `lineage`), then its own counted
 * runs. Mirrors P7's visible items, so a full summary of a fork includes what the fork saw.
 */
export function historySegments(
  threadId: ThreadId,
  upTo: number | null,
  lookup: PointLookup,
  lineage: readonly ContextTransfer[],
  visited: ReadonlySet<ThreadId> = new Set(),
  /** The source point `upTo` stands for, when it may sit inside that run (E12). */
  point?: ContextSourcePoint,
): RunSegment[] {
  if (visited.has(threadId)) return [];
  const seen = new Set(visited).add(threadId);
  const seed = lineage.find(
    (t) =>
      t.targetThreadId === threadId && SEED_TYPES.has(t.type) && APPLIED_STATUSES.has(t.status),
  );
  const inherited: RunSegment[] = [];
  if (seed !== undefined && seed.sourceThreadId !== threadId) {
    const at = locatePoint(seed.sourcePoint, lookup);
    if (at.ok && at.ordinal !== null) {
      inherited.push(
        ...historySegments(
          seed.sourceThreadId,
          at.ordinal,
          lookup,
          lineage,
          seen,
          seed.sourcePoint,
        ),
      );
    }
  }
  const own = countedRunsOf(lookup.runs, threadId)
    .filter((run) => upTo === null || run.ordinal <= upTo)
    .map((run) => run.ordinal);
  if (own.length === 0) return inherited;
  const cut = itemCut(point, lookup, threadId, own.at(-1));
  return [...inherited, { threadId, ordinals: own, ...(cut ? { throughItemId: cut } : {}) }];
}

/** The item a point inside a run (E12) cuts that run after, when it is this segment's last run. */
function itemCut(
  point: ContextSourcePoint | undefined,
  lookup: PointLookup,
  threadId: ThreadId,
  lastOrdinal: number | undefined,
): TurnItem["id"] | null {
  if (!point?.turnItemId || point.threadId !== threadId) return null;
  const item = lookup.turnItems.find((i) => i.id === point.turnItemId);
  const run = item?.runId ? lookup.runs.find((r) => r.id === item.runId) : undefined;
  return run !== undefined && run.ordinal === lastOrdinal ? point.turnItemId : null;
}
