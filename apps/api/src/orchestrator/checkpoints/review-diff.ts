import {
  type Checkpoint,
  NotFoundError,
  PreconditionFailedError,
  type RunId,
  type ThreadState,
} from "@skein/domain";
import { type CheckpointStore, CheckpointMissingError } from "@skein/checkpoints";
import type { CheckpointService } from "./checkpoint-service.ts";
import type { ReviewDiff, ReviewDiffInput, ReviewFile, ReviewPoint } from "@skein/contract";

/** One file's patch past this many characters is left out (the +/− counts stay). */
export const MAX_PATCH_CHARS = 200_000;
/** Patches of one answer past this total are left out, largest files last. */
export const MAX_TOTAL_PATCH_CHARS = 2_000_000;

const point = (c: Checkpoint): ReviewPoint => ({
  checkpointId: c.id,
  runId: c.runId,
  appRunOrdinal: c.appRunOrdinal,
});

function isRoot(state: ThreadState, c: Checkpoint): boolean {
  return state.checkpointScopes.get(c.scopeId)?.kind === "root_run";
}

/** The checkpoint the workspace is at: the newest ready root one whose run still counts. */
export function currentCheckpoint(state: ThreadState): Checkpoint | null {
  let current: Checkpoint | null = null;
  for (const c of state.checkpoints.values()) {
    if (c.status !== "ready" || !isRoot(state, c)) continue;
    if (c.runId && state.runs.get(c.runId)?.status === "rolled_back") continue;
    if (!current || c.capturedAt >= current.capturedAt) current = c;
  }
  return current;
}

function readyCheckpointOfRun(state: ThreadState, runId: RunId): Checkpoint {
  if (!state.runs.has(runId)) throw new NotFoundError("run", runId);
  for (const c of state.checkpoints.values()) {
    if (c.runId === runId && isRoot(state, c) && c.status === "ready") return c;
  }
  throw new PreconditionFailedError(`run ${runId} has no ready checkpoint to diff`);
}

/** The two checkpoints a review diff compares, and the git store holding them. */
export type DiffEnds = {
  from: Checkpoint | null;
  to: Checkpoint;
  /** The `from` ref, else the thread's baseline; null: the thread's base commit. */
  fromRef: string | null;
  cwd: string;
  store: CheckpointStore;
};

/**
 * Which checkpoints a review compares: a run's diff pairs its checkpoint with the one its capture
 * started from (the previous ready one, else the thread's baseline); the thread's diff goes from
 * its start (or `sinceRunId`'s checkpoint) to the current checkpoint. Null: no checkpoint yet.
 */
export async function diffEnds(
  checkpoints: CheckpointService,
  state: ThreadState,
  input: ReviewDiffInput,
): Promise<DiffEnds | null> {
  const threadId = state.thread!.id;
  let to: Checkpoint | null;
  let from: Checkpoint | null = null;
  if (input.runId) {
    to = readyCheckpointOfRun(state, input.runId);
    const parent = to.parentCheckpointId ? state.checkpoints.get(to.parentCheckpointId) : null;
    from = parent?.status === "ready" ? parent : null;
  } else {
    to = currentCheckpoint(state);
    if (input.sinceRunId) from = readyCheckpointOfRun(state, input.sinceRunId);
  }
  if (!to) return null;
  const cwd = state.checkpointScopes.get(to.scopeId)?.cwd;
  if (!cwd) throw new PreconditionFailedError(`checkpoint ${to.id} has no workspace recorded`);
  const store = await checkpoints.storeFor(cwd);
  const fromRef = from?.ref ?? (await checkpoints.baselineOf(store, threadId)) ?? null;
  return { from, to, fromRef, cwd, store };
}

/** The diff's files with their patches; the checkpoint's git data gone is PRECONDITION_FAILED. */
export async function diffFiles(ends: DiffEnds) {
  try {
    return await ends.store.diff(ends.fromRef, ends.to.ref);
  } catch (error) {
    if (error instanceof CheckpointMissingError) {
      throw new PreconditionFailedError(
        `the checkpoint's git data is gone from ${ends.cwd} (${error.message}); its diff cannot be shown`,
      );
    }
    throw error;
  }
}

/**
 * `review.diff`: the unified diff per file between two of a thread's checkpoints, read from the
 * checkpoint git refs, so the files match the checkpoint row.
 */
export async function reviewDiff(
  checkpoints: CheckpointService,
  state: ThreadState,
  input: ReviewDiffInput,
): Promise<ReviewDiff> {
  const ends = await diffEnds(checkpoints, state, input);
  if (!ends) return { from: null, to: null, files: [] };
  const { from, to } = ends;
  if (from?.id === to.id) return { from: point(from), to: point(to), files: [] };
  const diffs = await diffFiles(ends);
  return { from: from ? point(from) : null, to: point(to), files: capPatches(diffs) };
}

/**
 * Keeps answers bounded: huge patches are dropped (counts kept), smallest files first. `limits`:
 * a smaller budget where one answer holds several diffs (the fan-out compare).
 */
export function capPatches(
  diffs: ReadonlyArray<Omit<ReviewFile, "truncated">>,
  limits: { perFile: number; total: number } = {
    perFile: MAX_PATCH_CHARS,
    total: MAX_TOTAL_PATCH_CHARS,
  },
): ReviewFile[] {
  const bySize = [...diffs.keys()].sort(
    (a, b) => (diffs[a]?.patch.length ?? 0) - (diffs[b]?.patch.length ?? 0),
  );
  const keep = new Set<number>();
  let total = 0;
  for (const i of bySize) {
    const size = diffs[i]?.patch.length ?? 0;
    if (size > limits.perFile || total + size > limits.total) continue;
    total += size;
    keep.add(i);
  }
  return diffs.map((d, i) => ({
    ...d,
    patch: keep.has(i) ? d.patch : "",
    truncated: !keep.has(i),
  }));
}
