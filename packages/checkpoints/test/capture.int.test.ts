import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore, CheckpointMissingError } from "../src/index.ts";
import { CheckpointCaptureError, CheckpointError } from "../src/errors.ts";
import type { FileChange } from "../src/types.ts";
import {
  git,
  initRepo,
  sh,
  tempDir,
  userRepoState,
  writeFiles,
  repoWithStore,
} from "./support/test-workspace.ts";

const byPath = (files: readonly FileChange[]) =>
  Object.fromEntries(files.map((f) => [f.path, f] as const));

const capturedRepo = () =>
  repoWithStore("repo", {
    "src/app.ts": "line 1\nline 2\nline 3\n",
    "docs/old.md": "alpha\nbeta\ngamma\ndelta\n",
    "keep.txt": "unchanged\n",
    ".gitignore": "*.log\nbuild/\n",
  });

describe("capture in a git repository", () => {
  it("records a tracked edit, an untracked file and a deletion, leaving the user's repo alone", async () => {
    const { repo, store } = await capturedRepo();
    expect(store.mode).toBe("repo");
    // The run: one edit through a file write, the rest through shell commands.
    writeFiles(repo, { "src/app.ts": "line 1\nline two\nline 3\nline 4\n" });
    sh(repo, "printf 'new 1\\nnew 2\\n' > notes.txt && rm docs/old.md");
    sh(repo, "echo noise > debug.log && mkdir -p build && echo out > build/out.js");
    git(repo, "add", "keep.txt"); // the user's index holds something of their own
    const before = userRepoState(repo);

    const result = await store.capture({ threadId: "thr_1", runId: "run_1" });

    expect(result.ref).toBe("refs/skein/checkpoints/thr_1/run_1");
    expect(result.tree).toBe(git(repo, "rev-parse", `${result.commit}^{tree}`));
    expect(result.baseCommit).toBe(before.head);
    expect(byPath(result.files)).toEqual({
      "src/app.ts": {
        path: "src/app.ts",
        status: "modified",
        additions: 2,
        deletions: 1,
        binary: false,
      },
      "notes.txt": {
        path: "notes.txt",
        status: "added",
        additions: 2,
        deletions: 0,
        binary: false,
      },
      "docs/old.md": {
        path: "docs/old.md",
        status: "deleted",
        additions: 0,
        deletions: 4,
        binary: false,
      },
    });
    expect(userRepoState(repo)).toEqual(before);
    expect(git(repo, "rev-parse", result.ref)).toBe(result.commit);
    expect(git(repo, "rev-parse", `${result.commit}^`)).toBe(before.head);

    const held = git(repo, "ls-tree", "-r", "--name-only", result.commit).split("\n");
    expect(held.sort()).toEqual([".gitignore", "keep.txt", "notes.txt", "src/app.ts"]);
    expect(git(repo, "branch", "--list")).toBe("* main"); // hidden ref, no branch
  });

  it("diffs against the parent checkpoint and gives unified text per file", async () => {
    const { repo, store } = await capturedRepo();
    writeFiles(repo, { "notes.txt": "one\n" });
    const first = await store.capture({ threadId: "thr_2", runId: "run_1" });
    writeFiles(repo, { "notes.txt": "one\ntwo\n", "img.bin": Buffer.from([0, 1, 2, 0, 255]) });
    sh(repo, "git mv keep.txt kept.txt 2>/dev/null || mv keep.txt kept.txt");
    git(repo, "reset", "--quiet"); // undo the user's own staging; only the working tree matters
    const second = await store.capture({ threadId: "thr_2", runId: "run_2", parentRef: first.ref });

    expect(second.baseCommit).toBe(first.baseCommit);
    expect(byPath(second.files)).toEqual({
      "notes.txt": {
        path: "notes.txt",
        status: "modified",
        additions: 1,
        deletions: 0,
        binary: false,
      },
      "img.bin": { path: "img.bin", status: "added", additions: 0, deletions: 0, binary: true },
      "kept.txt": {
        path: "kept.txt",
        oldPath: "keep.txt",
        status: "renamed",
        additions: 0,
        deletions: 0,
        binary: false,
      },
    });

    const perRun = await store.diff(first.ref, second.ref);
    const notes = perRun.find((d) => d.path === "notes.txt");
    expect(notes?.patch).toContain("diff --git a/notes.txt b/notes.txt");
    expect(notes?.patch).toContain("\n one\n+two\n");
    expect(perRun.find((d) => d.path === "img.bin")?.patch).toContain("Binary files");

    const sinceStart = await store.diff(null, second.ref);
    expect(sinceStart.map((d) => d.path).sort()).toEqual(["img.bin", "kept.txt", "notes.txt"]);
    expect(sinceStart.find((d) => d.path === "notes.txt")?.patch).toContain("+one\n+two\n");

    const only = await store.diff(null, second.ref, ["notes.txt"]);
    expect(only.map((d) => d.path)).toEqual(["notes.txt"]);
  });

  it("summarizes what a checkpoint holds relative to the thread start, with sizes", async () => {
    const { repo, store } = await capturedRepo();
    writeFiles(repo, { "a.txt": "12345\n" });
    const first = await store.capture({ threadId: "thr_3", runId: "run_1" });
    sh(repo, "rm docs/old.md && printf 'x\\n' >> src/app.ts");
    const second = await store.capture({ threadId: "thr_3", runId: "run_2", parentRef: first.ref });

    const summary = await store.summarizeCheckpointFiles(second.ref);
    expect(summary.commit).toBe(second.commit);
    expect(summary.totalFiles).toBe(4); // .gitignore, a.txt, keep.txt, src/app.ts
    expect(summary.totalBytes).toBe(13 + 6 + 10 + 23);
    expect(byPath(summary.changedFiles)).toEqual({
      "a.txt": {
        path: "a.txt",
        status: "added",
        additions: 1,
        deletions: 0,
        binary: false,
        size: 6,
      },
      "docs/old.md": {
        path: "docs/old.md",
        status: "deleted",
        additions: 0,
        deletions: 4,
        binary: false,
        size: null,
      },
      "src/app.ts": {
        path: "src/app.ts",
        status: "modified",
        additions: 1,
        deletions: 0,
        binary: false,
        size: 23,
      },
    });
  });

  it("reports a deleted ref as missing and refuses to build on it", async () => {
    const { repo, store } = await capturedRepo();
    const first = await store.capture({ threadId: "thr_4", runId: "run_1" });
    expect(await store.status(first.ref)).toBe("ready");
    git(repo, "update-ref", "-d", first.ref);
    expect(await store.status(first.ref)).toBe("missing");
    const failure = store.capture({ threadId: "thr_4", runId: "run_2", parentRef: first.ref });
    await expect(failure).rejects.toBeInstanceOf(CheckpointCaptureError);
    await expect(failure).rejects.toMatchObject({ cause: expect.any(CheckpointMissingError) });
    await expect(store.diff(null, first.ref)).rejects.toThrow(/thr_4\/run_1 is missing/);
  });

  it("rejects ids and refs outside Skein's namespace", async () => {
    const { store } = await capturedRepo();
    await expect(store.capture({ threadId: "../x", runId: "run_1" })).rejects.toBeInstanceOf(
      CheckpointError,
    );
    await expect(store.status("refs/heads/main")).rejects.toThrow(/not a Skein checkpoint ref/);
  });

  it("captures a workspace that is a subfolder of a repository, ignoring the rest", async () => {
    const repo = tempDir("mono");
    initRepo(repo, { "pkg/a.txt": "a\n", "other/b.txt": "b\n" });
    const workspace = path.join(repo, "pkg");
    const store = await createCheckpointStore({
      workspaceRoot: workspace,
      shadowDir: tempDir("d"),
    });
    writeFiles(repo, { "pkg/a.txt": "a\nA\n", "pkg/new.txt": "n\n", "other/b.txt": "B\n" });
    const result = await store.capture({ threadId: "thr_5", runId: "run_1" });
    expect(result.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added new.txt",
      "modified a.txt",
    ]);
  });
});
