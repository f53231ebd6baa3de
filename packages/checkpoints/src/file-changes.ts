import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import type { FileChange, FileChangeStatus } from "./types.ts";

/** Arguments shared by every tree diff so raw, numstat and patch outputs list files identically. */
export function treeDiffArgs(ctx: GitContext): string[] {
  const args = ["diff-tree", "-r", "-M", "--no-color", "--no-ext-diff", "--no-textconv"];
  // A workspace in a repo subfolder sees only its own files, with paths relative to it.
  if (ctx.prefix) args.push("--relative");
  return args;
}

const emptyTreeCache = new Map<string, Promise<string>>();

/** The empty tree's id depends on the repository's hash algorithm (sha1 or sha256). */
export function emptyTree(ctx: GitContext): Promise<string> {
  let cached = emptyTreeCache.get(ctx.gitDir);
  if (!cached) {
    cached = runGit(["hash-object", "-t", "tree", "--stdin"], {
      cwd: ctx.workspaceRoot,
      env: ctx.env,
    }).then((r) => r.stdout.toString("utf8").trim());
    emptyTreeCache.set(ctx.gitDir, cached);
  }
  return cached;
}

export async function diffFileChanges(
  ctx: GitContext,
  from: string,
  to: string,
  paths: readonly string[] = [],
): Promise<FileChange[]> {
  const { stdout } = await runGit(
    [...treeDiffArgs(ctx), "--raw", "--numstat", "-z", from, to, "--", ...paths],
    { cwd: ctx.workspaceRoot, env: ctx.env },
  );
  return parseRawNumstat(stdout.toString("utf8"));
}

const STATUS: Record<string, FileChangeStatus> = {
  A: "added",
  M: "modified",
  T: "modified",
  D: "deleted",
  R: "renamed",
  C: "added",
};

/**
 * `--raw --numstat -z` prints every raw record first, then one numstat record per file in the same
 * order, so the two halves are zipped by position.
 */
export function parseRawNumstat(output: string): FileChange[] {
  const tokens = output.split("\0");
  const changes: FileChange[] = [];
  let i = 0;
  while (i < tokens.length && tokens[i]?.startsWith(":")) {
    const letter = tokens[i]?.split(" ")[4]?.charAt(0) ?? "M";
    const status = STATUS[letter] ?? "modified";
    if (letter === "R" || letter === "C") {
      const oldPath = tokens[i + 1] ?? "";
      const path = tokens[i + 2] ?? "";
      changes.push({
        path,
        ...(letter === "R" ? { oldPath } : {}),
        status,
        additions: 0,
        deletions: 0,
        binary: false,
      });
      i += 3;
    } else {
      changes.push({
        path: tokens[i + 1] ?? "",
        status,
        additions: 0,
        deletions: 0,
        binary: false,
      });
      i += 2;
    }
  }
  for (const change of changes) {
    const stat = tokens[i] ?? "";
    const [added = "0", deleted = "0", inlinePath = ""] = stat.split("\t");
    // A rename's numstat record leaves the path empty and appends old and new paths as tokens.
    i += inlinePath === "" ? 3 : 1;
    if (added === "-") {
      change.binary = true;
    } else {
      change.additions = Number(added);
      change.deletions = Number(deleted);
    }
  }
  return changes;
}
