import { truncateMiddle } from "../token-budget.ts";
import type { BriefFile, RunRef } from "./brief-types.ts";

/** One file of a net diff, as git reports it between two checkpoints. */
export type NetFileDiff = {
  readonly fileName: string;
  readonly additions: number | null;
  readonly deletions: number | null;
  readonly patch: string;
};

/**
 * Issue 25 item 2: the state of the work as git has it, from the handoff's base (null: the
 * thread's start) to its source point. Checkpoints snapshot the working tree, so uncommitted
 * changes are in it; a file changed many times shows once, as it ended up.
 */
export type NetDiff = {
  readonly sourceCheckpointId: string;
  readonly baseCheckpointId: string | null;
  /** Folders git's relative paths are in (runtimes report absolute paths under one of them). */
  readonly roots: readonly string[];
  readonly files: readonly NetFileDiff[];
};

/** Where a net diff runs from and to, named as runs for the text. */
export type NetDiffSpan = { readonly from: RunRef | null; readonly to: RunRef | null };

/** One file's net patch past this many characters is cut in the middle (tokens are bounded). */
const MAX_NET_PATCH_CHARS = 1_200;

/**
 * The brief's files from the net diff: each file git says differs, with its net patch; how many
 * runs changed it and the last one come from the runs' own file changes. A file the runs changed
 * and changed back is not listed (nothing differs); one changed outside any covered run (the
 * person's edit, uncommitted) is, with no run to cite.
 */
export function netBriefFiles(perRun: readonly BriefFile[], net: NetDiff): BriefFile[] {
  const relative = (name: string) => {
    const root = net.roots.find((r) => name.startsWith(`${r}/`));
    return root ? name.slice(root.length + 1) : name;
  };
  const byName = new Map(perRun.map((file) => [relative(file.fileName), file]));
  const files = net.files.map((file): BriefFile => {
    const runs = byName.get(file.fileName);
    return {
      fileName: file.fileName,
      changes: runs?.changes ?? 0,
      additions: file.additions,
      deletions: file.deletions,
      lastRun: runs?.lastRun ?? null,
      latestDiff: patchBody(file.patch),
      net: true,
    };
  });
  // Newest last (the brief keeps the newest when it must cut); files no run changed go first.
  return files.sort((a, b) => (a.lastRun?.ordinal ?? 0) - (b.lastRun?.ordinal ?? 0));
}

/** The hunks (and ---/+++ names) of a file's patch, capped: git's header lines say nothing new. */
function patchBody(patch: string): string | null {
  const body = patch
    .split("\n")
    .filter((line) => !line.startsWith("diff --git ") && !line.startsWith("index "))
    .join("\n")
    .trimEnd();
  return body === "" ? null : (truncateMiddle(body, MAX_NET_PATCH_CHARS) ?? null);
}
