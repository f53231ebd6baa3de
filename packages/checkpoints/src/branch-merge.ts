import { CheckpointError } from "./errors.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import { openTempIndex } from "./temp-index.ts";
import type { BranchHead, BranchMergeInput, BranchMergePlan } from "./types.ts";

/** Bring-back commits carry Skein's identity: the work is an agent's, not the user's. */
const IDENTITY = {
  GIT_AUTHOR_NAME: "Skein",
  GIT_AUTHOR_EMAIL: "checkpoints@skein.local",
  GIT_COMMITTER_NAME: "Skein",
  GIT_COMMITTER_EMAIL: "checkpoints@skein.local",
};

/** Names the run in a bring-back merge commit, so undoing that run can find the merge again. */
const RUN_TRAILER = "Skein-Bring-Back-Run";

/**
 * The branch checked out where the workspace lives, and whether the whole checkout is clean
 * (index and work tree equal HEAD, no untracked files). A detached HEAD answers `branch: null`.
 */
export async function branchHead(ctx: GitContext): Promise<BranchHead> {
  if (ctx.mode !== "repo") return { branch: null, commit: null, clean: false };
  const opts = { cwd: ctx.workTree, env: ctx.env, okCodes: [0, 1, 128] };
  const [ref, head, status] = await Promise.all([
    runGit(["symbolic-ref", "-q", "HEAD"], opts),
    runGit(["rev-parse", "--verify", "-q", "HEAD^{commit}"], opts),
    runGit(["status", "--porcelain", "-z", "--untracked-files=all"], { ...opts, okCodes: [0] }),
  ]);
  const refName = ref.exitCode === 0 ? ref.stdout.toString("utf8").trim() : "";
  return {
    branch: refName.startsWith("refs/heads/") ? refName.slice("refs/heads/".length) : null,
    commit: head.exitCode === 0 ? head.stdout.toString("utf8").trim() : null,
    clean: status.stdout.length === 0,
  };
}

/**
 * A full-repository tree equal to `outside` everywhere but the workspace, which comes from
 * `inside`: what a subfolder workspace's change looks like on top of the user's commit, so a
 * merge never carries anything outside the workspace (checkpoints only hold the subfolder's
 * truth; the rest of their tree is whatever the first capture was seeded with).
 */
export async function graftWorkspace(
  ctx: GitContext,
  outside: string,
  inside: string,
): Promise<string> {
  if (!ctx.prefix) return (await treeOf(ctx, inside)).trim();
  const index = await openTempIndex(ctx, outside);
  try {
    // cwd is the workspace, so "." is the subfolder: drop it, then read it in from `inside`.
    await index.git(["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", "."]);
    const sub = ctx.prefix.replace(/\/$/, "");
    const present = await runGit(["cat-file", "-e", `${inside}:${sub}`], {
      cwd: ctx.workspaceRoot,
      env: ctx.env,
      okCodes: [0, 1, 128],
    });
    if (present.exitCode === 0) {
      await index.git(["read-tree", `--prefix=${ctx.prefix}`, `${inside}:${sub}`]);
    }
    return (await index.git(["write-tree"])).toString("utf8").trim();
  } finally {
    await index.dispose();
  }
}

async function treeOf(ctx: GitContext, treeish: string): Promise<string> {
  const { stdout } = await runGit(["rev-parse", "--verify", `${treeish}^{tree}`], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
  });
  return stdout.toString("utf8");
}

async function commit(ctx: GitContext, tree: string, parents: string[], message: string) {
  const { stdout } = await runGit(
    ["commit-tree", "--no-gpg-sign", tree, ...parents.flatMap((p) => ["-p", p])],
    { cwd: ctx.workspaceRoot, env: { ...ctx.env, ...IDENTITY }, input: message },
  );
  return stdout.toString("utf8").trim();
}

/**
 * Writes (as objects only: no ref, index or file moves) the two commits a bring-back merge adds:
 * one commit holding only the fork's net change on top of `head`, and a `--no-ff` style merge of
 * it into `head` whose message names the fork thread and the run. Both have tree `tree`.
 */
export async function planBranchMerge(
  ctx: GitContext,
  input: BranchMergeInput,
): Promise<BranchMergePlan> {
  const work = await commit(ctx, input.tree, [input.head], `${input.workMessage.trim()}\n`);
  const merge = await commit(
    ctx,
    input.tree,
    [input.head, work],
    `${input.mergeMessage.trim()}\n\n${RUN_TRAILER}: ${input.runId}\n`,
  );
  return { branch: input.branch, head: input.head, work, merge };
}

/**
 * Moves `branch` from `from` to `to` (compare-and-swap; already at `to` is done) and makes the
 * checkout's index match `to` without touching files: the caller has already written them. A
 * branch that moved elsewhere meanwhile is refused: it is the user's, never forced.
 */
export async function moveBranch(
  ctx: GitContext,
  input: { branch: string; from: string; to: string; reason: string },
): Promise<void> {
  const ref = `refs/heads/${input.branch}`;
  const opts = { cwd: ctx.workTree, env: ctx.env };
  const now = await runGit(["rev-parse", "--verify", "-q", `${ref}^{commit}`], {
    ...opts,
    okCodes: [0, 1],
  });
  const at = now.stdout.toString("utf8").trim();
  if (at !== input.to) {
    if (at !== input.from) {
      throw new CheckpointError(
        `branch ${input.branch} is at ${at || "nothing"}, not ${input.from}: it moved meanwhile, so Skein leaves it alone`,
      );
    }
    await runGit(["update-ref", "-m", input.reason, ref, input.to, input.from], opts);
  }
  // `--reset` (a one-tree merge that ignores the files, already written) keeps the stat data
  // of entries whose content matches, so `git status` need not re-hash the whole checkout.
  await runGit(["read-tree", "--reset", `${input.to}^{tree}`], opts);
  await runGit(["update-index", "-q", "--refresh"], { ...opts, okCodes: [0, 1] });
}

/**
 * Undo of bring-back merges: while the checked-out branch's tip is a Skein bring-back merge of
 * one of `runIds`, the branch goes back to the merge's first parent (the user's commit before).
 * Returns how many merges were undone. Files are the caller's (a checkpoint restore).
 */
export async function undoBranchMerges(ctx: GitContext, runIds: ReadonlySet<string>) {
  let undone = 0;
  for (;;) {
    const head = await branchHead(ctx);
    if (!head.branch || !head.commit) return undone;
    const { stdout } = await runGit(["cat-file", "commit", head.commit], {
      cwd: ctx.workTree,
      env: ctx.env,
    });
    const text = stdout.toString("utf8");
    const run = new RegExp(`^${RUN_TRAILER}: (\\S+)$`, "m").exec(text)?.[1];
    const parent = /^parent ([0-9a-f]+)$/m.exec(text)?.[1];
    if (!run || !parent || !runIds.has(run)) return undone;
    await moveBranch(ctx, {
      branch: head.branch,
      from: head.commit,
      to: parent,
      reason: "skein: undo bring-back merge",
    });
    undone += 1;
  }
}
