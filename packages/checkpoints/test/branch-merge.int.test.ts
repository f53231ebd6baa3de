import { describe, expect, it } from "vitest";
import { CheckpointError } from "../src/errors.ts";
import { fileContent, git, writeFiles, repoWithStore } from "./support/test-workspace.ts";

describe("bring-back merges onto the user's branch (issue 19, code: merge)", () => {
  it("a subfolder workspace: one work commit + a merge commit, nothing outside the subfolder, undone by run", async () => {
    const { repo, store } = await repoWithStore(
      "bmerge",
      { "app/a.txt": "a\n", "other/c.txt": "c\n" },
      "app",
    );
    const head = await store.branchHead();
    expect(head).toMatchObject({ clean: true });
    expect(head.branch).toBe(git(repo, "symbolic-ref", "--short", "HEAD").trim());

    // A "fork" tree that also changed a file outside the subfolder: that part must not come in.
    writeFiles(repo, { "app/a.txt": "A\n", "app/new.txt": "n\n", "other/c.txt": "OUT\n" });
    git(repo, "add", "-A");
    const forkTree = git(repo, "write-tree").trim();
    git(repo, "reset", "-q", "--hard");
    git(repo, "clean", "-qfd");
    const tree = await store.graftWorkspace(head.commit!, forkTree);
    const plan = await store.planBranchMerge({
      branch: head.branch!,
      head: head.commit!,
      tree,
      workMessage: "Work of fork thr_x",
      mergeMessage: "Merge fork thread thr_x",
      runId: "run_1",
    });
    // Objects only so far: the branch has not moved.
    expect(git(repo, "rev-parse", "HEAD").trim()).toBe(head.commit);

    await store.restoreTree(tree);
    await store.moveBranch({ branch: plan.branch, from: plan.head, to: plan.merge, reason: "t" });
    // Again: already there, nothing to do (a recovery may repeat it).
    await store.moveBranch({ branch: plan.branch, from: plan.head, to: plan.merge, reason: "t" });
    expect(git(repo, "rev-parse", "HEAD").trim()).toBe(plan.merge);
    expect(git(repo, "rev-parse", "HEAD^1", "HEAD^2").trim().split("\n")).toEqual([
      plan.head,
      plan.work,
    ]);
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(git(repo, "diff", "--name-only", `${plan.head}`, plan.work).trim().split("\n")).toEqual([
      "app/a.txt",
      "app/new.txt",
    ]);
    expect(fileContent(repo, "other/c.txt")).toBe("c\n");
    expect(git(repo, "log", "-1", "--format=%B", plan.merge)).toContain(
      "Skein-Bring-Back-Run: run_1",
    );

    // A branch moved by someone else is never forced.
    await expect(
      store.moveBranch({ branch: plan.branch, from: plan.head, to: "f".repeat(40), reason: "t" }),
    ).rejects.toBeInstanceOf(CheckpointError);

    // Undo for another run changes nothing; for this run, the branch goes back to the user's commit.
    expect(await store.undoBranchMerges(new Set(["run_2"]))).toBe(0);
    expect(await store.undoBranchMerges(new Set(["run_1"]))).toBe(1);
    expect(git(repo, "rev-parse", "HEAD").trim()).toBe(head.commit);
    expect(git(repo, "diff", "--cached", "--name-only")).toBe("");
  });

  it("reports a detached HEAD and a dirty checkout", async () => {
    const { repo, store } = await repoWithStore("bmerge2", { "a.txt": "a\n" });
    writeFiles(repo, { "u.txt": "untracked\n" });
    expect(await store.branchHead()).toMatchObject({ clean: false });
    git(repo, "checkout", "-q", "--detach");
    expect(await store.branchHead()).toMatchObject({ branch: null });
  });
});
