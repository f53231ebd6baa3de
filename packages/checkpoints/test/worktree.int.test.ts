import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore, CheckpointMissingError } from "../src/index.ts";
import { CheckpointError } from "../src/errors.ts";
import {
  git,
  hashTree,
  initRepo,
  tempDir,
  userRepoState,
  writeFiles,
  repoWithStore,
} from "./support/test-workspace.ts";

describe("isolated worktree at a checkpoint", () => {
  it("checks out the checkpoint on a new branch; edits there leave the source alone", async () => {
    const { repo, store } = await repoWithStore("src", { "app.ts": "v1\n", "lib/x.ts": "x\n" });
    writeFiles(repo, { "app.ts": "v2\n", "draft.md": "untracked but captured\n" });
    const checkpoint = await store.capture({ threadId: "thr_f", runId: "run_1" });
    const sourceHashes = hashTree(repo);
    const sourceState = userRepoState(repo);

    const forkPath = path.join(tempDir("forks"), "thr_fork");
    const fork = await store.createIsolatedWorktree({
      ref: checkpoint.ref,
      branch: "skein/thr_fork",
      path: forkPath,
    });
    expect(fork).toMatchObject({ branch: "skein/thr_fork", commit: checkpoint.commit });
    expect(fork.workspacePath).toBe(fork.worktreePath);
    expect(hashTree(fork.worktreePath)).toEqual(sourceHashes);
    expect(git(fork.worktreePath, "rev-parse", "HEAD")).toBe(checkpoint.commit);
    expect(git(fork.worktreePath, "status", "--porcelain")).toBe("");

    // The fork's run edits files and gets checkpoints of its own.
    writeFiles(fork.worktreePath, { "app.ts": "fork edit\n", "fork-only.ts": "f\n" });
    const forkStore = await createCheckpointStore({
      workspaceRoot: fork.worktreePath,
      shadowDir: tempDir("fork-data"),
    });
    const forkRun = await forkStore.capture({
      threadId: "thr_fork",
      runId: "run_1",
      parentRef: checkpoint.ref,
    });
    expect(forkRun.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added fork-only.ts",
      "modified app.ts",
    ]);

    expect(hashTree(repo)).toEqual(sourceHashes);
    const after = userRepoState(repo);
    expect({ ...after, branches: "" }).toEqual({ ...sourceState, branches: "" });

    await store.removeWorktree({ worktreePath: fork.worktreePath, deleteBranch: fork.branch });
    expect(existsSync(fork.worktreePath)).toBe(false);
    expect(git(repo, "branch", "--list", "skein/*")).toBe("");
    expect(await store.status(forkRun.ref)).toBe("ready"); // checkpoints outlive the fork
  });

  it("starts a worktree at a commit (a new thread's, at HEAD); a non-commit is refused", async () => {
    const repo = tempDir("src");
    initRepo(repo, { "app.ts": "v1\n" });
    writeFiles(repo, { "app.ts": "person's uncommitted edit\n" });
    const store = await createCheckpointStore({ workspaceRoot: repo, shadowDir: tempDir("data") });
    const head = git(repo, "rev-parse", "HEAD");
    expect(await store.headCommit()).toBe(head);
    const made = await store.createIsolatedWorktree({
      commit: "HEAD",
      branch: "skein/thr_new",
      path: path.join(tempDir("wt"), "thr_new"),
    });
    expect(made.commit).toBe(head);
    // The committed file, not the person's uncommitted edit.
    expect(readFileSync(path.join(made.worktreePath, "app.ts"), "utf8")).toBe("v1\n");
    await expect(
      store.createIsolatedWorktree({
        commit: "no-such-branch",
        branch: "skein/thr_bad",
        path: path.join(tempDir("wt"), "thr_bad"),
      }),
    ).rejects.toThrow(CheckpointError);
  });

  it("adds and removes many worktrees of one repository at once (fan-out), none failing", async () => {
    const { repo, store } = await repoWithStore("src", { "app.ts": "v1\n" });
    const checkpoint = await store.capture({ threadId: "thr_f", runId: "run_1" });
    const forks = tempDir("forks");
    const names = Array.from({ length: 8 }, (_, i) => `thr_many${i}`);
    const made = await Promise.all(
      names.map((name) =>
        store.createIsolatedWorktree({
          ref: checkpoint.ref,
          branch: `skein/${name}`,
          path: path.join(forks, name),
        }),
      ),
    );
    expect(made.map((fork) => fork.branch)).toEqual(names.map((name) => `skein/${name}`));
    await Promise.all(
      made.map((fork) =>
        store.removeWorktree({ worktreePath: fork.worktreePath, deleteBranch: fork.branch }),
      ),
    );
    expect(git(repo, "branch", "--list", "skein/*")).toBe("");
  });

  it("refuses missing checkpoints and bad branch names", async () => {
    const { repo, store } = await repoWithStore("src", { "a.txt": "a\n" });
    const { ref } = await store.capture({ threadId: "thr_g", runId: "run_1" });
    const target = path.join(tempDir("forks"), "f");
    await expect(
      store.createIsolatedWorktree({ ref, branch: "bad..name", path: target }),
    ).rejects.toBeInstanceOf(CheckpointError);
    git(repo, "update-ref", "-d", ref);
    await expect(
      store.createIsolatedWorktree({ ref, branch: "ok", path: target }),
    ).rejects.toBeInstanceOf(CheckpointMissingError);
    expect(existsSync(target)).toBe(false);
  });
});
