import { existsSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import path from "node:path";
import { CheckpointError, GitCommandError } from "./errors.ts";
import { type GitResult, gitText, runGit } from "./git-runner.ts";

/**
 * Where git state lives for one workspace. `repo`: the workspace's own repository (objects and refs
 * land in it). `shadow`: a private git dir under Skein's data dir pointed at the plain folder.
 */
export type GitContext = {
  mode: "repo" | "shadow";
  /** Real path of the folder Skein manages. */
  workspaceRoot: string;
  /** Top of the git work tree: the repository root (repo) or the workspace itself (shadow). */
  workTree: string;
  /** Workspace path inside the work tree, "" or ending in "/" (a workspace may be a repo subfolder). */
  prefix: string;
  gitDir: string;
  /** Private scratch space: temporary indexes and the stat cache. */
  scratchDir: string;
  env: Record<string, string>;
};

export type CheckpointStoreOptions = {
  workspaceRoot: string;
  /** Per-workspace folder under Skein's data dir; must lie outside the workspace. */
  shadowDir: string;
};

export async function openGitContext(options: CheckpointStoreOptions): Promise<GitContext> {
  const workspaceRoot = await realpath(options.workspaceRoot);
  const repo = await detectRepository(workspaceRoot);
  // Checked before creating anything, so a misplaced shadowDir leaves no trace in the workspace.
  const shadowDir = await realpathOfNearest(options.shadowDir);
  assertOutside(shadowDir, repo?.workTree ?? workspaceRoot);
  const scratchDir = path.join(shadowDir, "scratch");
  await mkdir(scratchDir, { recursive: true });

  if (repo) {
    return {
      mode: "repo",
      workspaceRoot,
      workTree: repo.workTree,
      prefix: repo.prefix,
      gitDir: repo.gitDir,
      scratchDir,
      env: { GIT_DIR: repo.gitDir, GIT_WORK_TREE: repo.workTree },
    };
  }
  const gitDir = path.join(shadowDir, "git");
  await ensureShadowRepository(gitDir, workspaceRoot);
  return {
    mode: "shadow",
    workspaceRoot,
    workTree: workspaceRoot,
    prefix: "",
    gitDir,
    scratchDir,
    env: { GIT_DIR: gitDir, GIT_WORK_TREE: workspaceRoot },
  };
}

/** Real path of a folder that may not exist yet: resolve its deepest existing ancestor. */
async function realpathOfNearest(target: string): Promise<string> {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  for (let current = absolute; ; current = path.dirname(current)) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch {
      if (path.dirname(current) === current) return absolute;
      missing.push(path.basename(current));
    }
  }
}

type DetectedRepository = { workTree: string; gitDir: string; prefix: string };

async function detectRepository(workspaceRoot: string): Promise<DetectedRepository | null> {
  let result: GitResult;
  try {
    result = await runGit(["rev-parse", "--show-toplevel", "--absolute-git-dir", "--show-prefix"], {
      cwd: workspaceRoot,
    });
  } catch (error) {
    // Only "not a repository" means plain folder; anything else (dubious ownership, a bare repo)
    // must surface instead of silently switching to a shadow dir.
    if (error instanceof GitCommandError && /not a git repository/i.test(error.stderr)) return null;
    throw error;
  }
  const [workTree, gitDir, prefix = ""] = result.stdout.toString("utf8").split("\n");
  if (!workTree || !gitDir) throw new CheckpointError(`Unexpected rev-parse output`);
  return { workTree: await realpath(workTree), gitDir, prefix };
}

async function ensureShadowRepository(gitDir: string, workspaceRoot: string): Promise<void> {
  const cwd = path.dirname(gitDir);
  if (!existsSync(path.join(gitDir, "HEAD"))) {
    await runGit(["init", "--quiet", "--bare", gitDir], { cwd });
    const set = (key: string, value: string) =>
      runGit(["config", key, value], { cwd, env: { GIT_DIR: gitDir } });
    await set("core.bare", "false");
    await set("core.logAllRefUpdates", "false");
    await set("skein.workspace", workspaceRoot);
    return;
  }
  const bound = await gitText(["config", "--default", "", "skein.workspace"], {
    cwd,
    env: { GIT_DIR: gitDir },
  });
  if (bound && bound !== workspaceRoot) {
    throw new CheckpointError(
      `Shadow checkpoint dir ${gitDir} belongs to ${bound}, not ${workspaceRoot}; use one shadowDir per workspace`,
    );
  }
}

function assertOutside(shadowDir: string, tree: string): void {
  const rel = path.relative(tree, shadowDir);
  if (rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel))) {
    throw new CheckpointError(
      `shadowDir ${shadowDir} lies inside ${tree}; it must live outside the workspace (Skein's data dir)`,
    );
  }
}

/** The commit the user's HEAD points to, or null for an unborn branch / shadow mode. */
export async function headCommit(ctx: GitContext): Promise<string | null> {
  if (ctx.mode === "shadow") return null;
  const { stdout, exitCode } = await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
    okCodes: [0, 1],
  });
  return exitCode === 0 ? stdout.toString("utf8").trim() : null;
}
