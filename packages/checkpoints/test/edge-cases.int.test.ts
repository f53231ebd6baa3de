import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore } from "../src/index.ts";
import {
  fileContent,
  git,
  hashTree,
  initRepo,
  sh,
  tempDir,
  writeFiles,
  repoWithStore,
} from "./support/test-workspace.ts";

describe("checkpoint edge cases", () => {
  it("never misses a same-size edit made right after a capture (stat cache is racy-safe)", async () => {
    const { repo, store } = await repoWithStore("racy", { "f.txt": "aaaa\n" });
    let parentRef: string | undefined;
    for (let i = 0; i < 6; i++) {
      const content = `${String.fromCharCode(98 + i).repeat(4)}\n`;
      writeFiles(repo, { "f.txt": content });
      const result = await store.capture({ threadId: "thr_racy", runId: `run_${i}`, parentRef });
      expect(git(repo, "show", `${result.commit}:f.txt`)).toBe(content.trimEnd());
      parentRef = result.ref;
    }
  });

  it("restores across file/folder swaps", async () => {
    const { repo, store } = await repoWithStore("swap", { a: "file a\n", "dir/b.txt": "b\n" });
    const one = await store.capture({ threadId: "thr_swap", runId: "run_1" });
    const hashes1 = hashTree(repo);
    sh(repo, "rm a && mkdir a && echo inner > a/inner.txt && rm -r dir && echo now-file > dir");
    const two = await store.capture({ threadId: "thr_swap", runId: "run_2", parentRef: one.ref });
    const hashes2 = hashTree(repo);

    await store.restore(one.ref);
    expect(hashTree(repo)).toEqual(hashes1);
    await store.restore(two.ref);
    expect(hashTree(repo)).toEqual(hashes2);
  });

  it("restores a subfolder workspace without touching the rest of the repository", async () => {
    const repo = tempDir("mono");
    initRepo(repo, { "pkg/a.txt": "a\n", "other/b.txt": "b\n" });
    const workspace = path.join(repo, "pkg");
    const store = await createCheckpointStore({
      workspaceRoot: workspace,
      shadowDir: tempDir("d"),
    });
    const one = await store.capture({ threadId: "thr_sub", runId: "run_1" });
    writeFiles(repo, { "pkg/a.txt": "changed\n", "pkg/new.txt": "n\n", "other/b.txt": "user\n" });
    writeFiles(repo, { "other/c.txt": "user too\n" });

    const restored = await store.restore(one.ref);
    expect(restored.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "deleted new.txt",
      "modified a.txt",
    ]);
    expect(Object.keys(hashTree(workspace))).toEqual(["a.txt"]);
    expect(fileContent(workspace, "a.txt")).toBe("a\n");
    expect(fileContent(repo, "other/b.txt")).toBe("user\n");
    expect(fileContent(repo, "other/c.txt")).toBe("user too\n");

    const fork = await store.createIsolatedWorktree({
      ref: one.ref,
      branch: "fork-sub",
      path: path.join(tempDir("forks"), "f"),
    });
    expect(fork.workspacePath).toBe(path.join(fork.worktreePath, "pkg"));
    expect(fileContent(fork.workspacePath, "a.txt")).toBe("a\n");
  });

  it("honours .git/info/exclude and a staged-but-unborn repository", async () => {
    const repo = tempDir("unborn");
    git(repo, "init", "--quiet");
    writeFiles(repo, { "a.txt": "a\n", "secret.env": "KEY=1\n", ".git/info/exclude": "*.env\n" });
    const store = await createCheckpointStore({ workspaceRoot: repo, shadowDir: tempDir("d") });
    const result = await store.capture({ threadId: "thr_u", runId: "run_1" });
    expect(result.baseCommit).toBeNull();
    expect(result.files.map((f) => f.path)).toEqual(["a.txt"]);
    expect(git(repo, "status", "--porcelain")).toBe("?? a.txt");
  });
});
