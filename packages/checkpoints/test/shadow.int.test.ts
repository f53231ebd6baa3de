import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore } from "../src/index.ts";
import { CheckpointError, NotAGitRepositoryError } from "../src/errors.ts";
import { fileContent, git, hashTree, sh, tempDir, writeFiles } from "./support/test-workspace.ts";

function plainFolder(): string {
  const dir = tempDir("plain");
  writeFiles(dir, {
    "index.html": "<h1>hi</h1>\n",
    "css/site.css": "body {}\n",
    "old.txt": "to be removed\n",
    ".gitignore": "node_modules/\n*.tmp\n",
    "node_modules/dep/index.js": "module.exports = 1;\n",
  });
  return dir;
}

describe("a workspace that is not a git repository", () => {
  it("captures, diffs and restores through a shadow git dir outside the workspace", async () => {
    const workspace = plainFolder();
    const data = tempDir("data");
    const store = await createCheckpointStore({ workspaceRoot: workspace, shadowDir: data });
    expect(store.mode).toBe("shadow");

    const first = await store.capture({ threadId: "thr_s", runId: "run_1" });
    expect(first.baseCommit).toBeNull();
    expect(first.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added .gitignore",
      "added css/site.css",
      "added index.html",
      "added old.txt",
    ]);
    expect(existsSync(path.join(workspace, ".git"))).toBe(false);
    expect(existsSync(path.join(data, "git", "HEAD"))).toBe(true);
    const hashes1 = hashTree(workspace);

    writeFiles(workspace, { "index.html": "<h1>hello</h1>\n<p>x</p>\n", "scratch.tmp": "t" });
    sh(workspace, "rm old.txt && echo 'new' > js.js && echo 2 > node_modules/dep/index.js");
    const second = await store.capture({ threadId: "thr_s", runId: "run_2", parentRef: first.ref });
    expect(second.files.map((f) => [f.status, f.path, f.additions, f.deletions])).toEqual(
      expect.arrayContaining([
        ["modified", "index.html", 2, 1],
        ["added", "js.js", 1, 0],
        ["deleted", "old.txt", 0, 1],
      ]),
    );
    expect(second.files).toHaveLength(3);

    const summary = await store.summarizeCheckpointFiles(second.ref);
    expect(summary.baseCommit).toBeNull();
    expect(summary.totalFiles).toBe(4);
    expect(summary.changedFiles.every((f) => f.status === "added")).toBe(true);
    expect((await store.diff(null, second.ref)).find((d) => d.path === "js.js")?.patch).toContain(
      "+new",
    );

    await store.restore(first.ref);
    const after = hashTree(workspace);
    // The ignored files the run touched stay as the run left them; everything else is run 1.
    expect(fileContent(workspace, "node_modules/dep/index.js")).toBe("2\n");
    expect(fileContent(workspace, "scratch.tmp")).toBe("t");
    delete after["node_modules/dep/index.js"];
    delete after["scratch.tmp"];
    delete hashes1["node_modules/dep/index.js"];
    expect(after).toEqual(hashes1);

    // Reopening the same folder finds the same checkpoints.
    const reopened = await createCheckpointStore({ workspaceRoot: workspace, shadowDir: data });
    expect(await reopened.status(second.ref)).toBe("ready");
    git(data, "--git-dir=git", "update-ref", "-d", second.ref);
    expect(await reopened.status(second.ref)).toBe("missing");
  });

  it("has no isolated worktrees", async () => {
    const store = await createCheckpointStore({
      workspaceRoot: plainFolder(),
      shadowDir: tempDir("data"),
    });
    const { ref } = await store.capture({ threadId: "thr_w", runId: "run_1" });
    const attempt = store.createIsolatedWorktree({ ref, branch: "fork", path: tempDir("wt") });
    await expect(attempt).rejects.toBeInstanceOf(NotAGitRepositoryError);
    await expect(attempt).rejects.toThrow(/is not inside a git repository/);
  });

  it("refuses a shadow dir inside the workspace or bound to another workspace", async () => {
    const workspace = plainFolder();
    const inside = path.join(workspace, ".skein");
    await expect(
      createCheckpointStore({ workspaceRoot: workspace, shadowDir: inside }),
    ).rejects.toThrow(/must live outside the workspace/);
    expect(existsSync(inside)).toBe(false);

    const data = tempDir("data");
    await createCheckpointStore({ workspaceRoot: workspace, shadowDir: data });
    const other = tempDir("other");
    mkdirSync(path.join(other, "x"));
    await expect(createCheckpointStore({ workspaceRoot: other, shadowDir: data })).rejects.toThrow(
      CheckpointError,
    );
  });
});
