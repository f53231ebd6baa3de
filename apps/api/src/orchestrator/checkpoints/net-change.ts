import type { NetChange } from "@skein/domain";
import type { CheckpointStore } from "@skein/checkpoints";

/**
 * Issue 29: the thread's net change at a just-captured checkpoint, against the thread's start
 * (its baseline, else the checkpoint's base commit) — the same ends as the Review page's
 * "whole thread" diff, counted once here so a sidebar read needs no git call per row. One
 * numstat of two trees: no patches are built. The capture's tree is known, and the baseline's
 * usually is (read when its ref was found).
 */
export async function netChangeOf(
  store: CheckpointStore,
  captured: { ref: string; tree: string },
  baseline: { ref: string; tree?: string } | undefined,
): Promise<NetChange> {
  const from = baseline
    ? (baseline.tree ?? (await store.checkpointTree(baseline.ref)))
    : await store.checkpointBaseTree(captured.ref);
  return sumOf(await store.changedFiles(from, captured.tree));
}

/** The files' lines summed: the net change when the files are counted from the thread's start. */
export function sumOf(files: readonly { additions: number; deletions: number }[]): NetChange {
  let additions = 0;
  let deletions = 0;
  for (const file of files) {
    additions += file.additions;
    deletions += file.deletions;
  }
  return { files: files.length, additions, deletions };
}
