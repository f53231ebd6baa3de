import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore } from "../src/index.ts";
import {
  fileContent,
  hashTree,
  initRepo,
  sh,
  tempDir,
  userRepoState,
  writeFiles,
} from "./support/test-workspace.ts";

/** Runs 1 and 2 of an agent, as checkpoints: run 2 edits a.txt, adds new.txt, deletes gone.txt. */
async function twoRuns(workspace: string, repoRoot = workspace) {
  const store = await createCheckpointStore({ workspaceRoot: workspace, shadowDir: tempDir("d") });
  writeFiles(workspace, { "a.txt": "run 1\n" });
  const run1 = await store.capture({ threadId: "thr_p", runId: "run_1" });
  writeFiles(workspace, { "a.txt": "run 2\n", "new.txt": "agent\n" });
  sh(workspace, "rm gone.txt");
  const run2 = await store.capture({ threadId: "thr_p", runId: "run_2", parentRef: run1.ref });
  const trees = {
    run1: await store.checkpointTree(run1.ref),
    run2: await store.checkpointTree(run2.ref),
  };
  return { store, trees, userBefore: userRepoState(repoRoot) };
}

describe("path restore (B14: undo the agent, never the person)", () => {
  it("B14: restores only the agent's paths; the person's edits and new files stay; user git state untouched", async () => {
    const repo = tempDir("pr");
    initRepo(repo, { "a.txt": "base\n", "README.md": "# mine\n", "gone.txt": "old\n" });
    const { store, trees } = await twoRuns(repo);
    writeFiles(repo, { "README.md": "# edited by hand\n", "notes.txt": "my notes\n" });
    const before = userRepoState(repo);

    const plan = await store.planPathRestore({ wrote: trees.run2, target: trees.run1 });
    expect(plan.conflicts).toEqual([]);
    const byPath = Object.fromEntries(plan.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath).sort()).toEqual(["a.txt", "gone.txt", "new.txt"]);
    expect(byPath["a.txt"]).toMatchObject({ status: "modified", conflict: false });
    expect(byPath["a.txt"]?.patch).toContain("+run 1");
    expect(byPath["new.txt"]).toMatchObject({ status: "deleted" });
    expect(byPath["gone.txt"]).toMatchObject({ status: "added" });
    // Planning moved nothing.
    expect(fileContent(repo, "a.txt")).toBe("run 2\n");

    await store.restoreTree(plan.result, plan.current);
    expect(fileContent(repo, "a.txt")).toBe("run 1\n");
    expect(fileContent(repo, "gone.txt")).toBe("old\n");
    expect(existsSync(path.join(repo, "new.txt"))).toBe(false);
    expect(fileContent(repo, "README.md")).toBe("# edited by hand\n");
    expect(fileContent(repo, "notes.txt")).toBe("my notes\n");
    const after = userRepoState(repo);
    expect({ ...after, status: "" }).toEqual({ ...before, status: "" });
  });

  it("B14: a path the person changed after the agent is a conflict; one already back at the target is not", async () => {
    const repo = tempDir("pc");
    initRepo(repo, { "a.txt": "base\n", "gone.txt": "old\n" });
    const { store, trees } = await twoRuns(repo);
    writeFiles(repo, { "new.txt": "the person rewrote the agent's file\n", "gone.txt": "old\n" });

    const plan = await store.planPathRestore({ wrote: trees.run2, target: trees.run1 });
    expect(plan.conflicts).toEqual(["new.txt"]);
    expect(plan.files.find((f) => f.path === "new.txt")).toMatchObject({ conflict: true });
    // gone.txt already holds its run-1 content: nothing to do for it.
    expect(plan.files.map((f) => f.path).sort()).toEqual(["a.txt", "new.txt"]);
  });

  it("B14: a safety checkpoint of a forced restore puts back exactly what the restore changed", async () => {
    const repo = tempDir("ps");
    initRepo(repo, { "a.txt": "base\n", "gone.txt": "old\n" });
    const { store, trees } = await twoRuns(repo);
    writeFiles(repo, { "a.txt": "the person's edit\n", "mine.txt": "mine\n" });
    const beforeForce = hashTree(repo);

    const plan = await store.planPathRestore({ wrote: trees.run2, target: trees.run1 });
    expect(plan.conflicts).toEqual(["a.txt"]);
    const ref = await store.recordSafetyCheckpoint({
      threadId: "thr_p",
      name: "safety-1",
      before: plan.current,
      wrote: plan.result,
    });
    await store.restoreTree(plan.result, plan.current);
    expect(fileContent(repo, "a.txt")).toBe("run 1\n");
    writeFiles(repo, { "later.txt": "made after the forced restore\n" });

    const back = await store.planPathRestore({
      wrote: await store.safetyWroteTree(ref),
      target: await store.checkpointTree(ref),
    });
    expect(back.conflicts).toEqual([]);
    await store.restoreTree(back.result, back.current);
    expect(hashTree(repo)).toEqual({ ...beforeForce, "later.txt": hashTree(repo)["later.txt"] });
    expect(fileContent(repo, "a.txt")).toBe("the person's edit\n");
  });

  it("B14: a subfolder workspace restores its own paths only, named relative to it", async () => {
    const repo = tempDir("psub");
    initRepo(repo, { "app/a.txt": "base\n", "app/gone.txt": "old\n", "outside.txt": "x\n" });
    const app = path.join(repo, "app");
    const { store, trees } = await twoRuns(app, repo);
    writeFiles(repo, { "outside.txt": "changed outside\n", "app/mine.txt": "mine\n" });

    const plan = await store.planPathRestore({ wrote: trees.run2, target: trees.run1 });
    expect(plan.files.map((f) => f.path).sort()).toEqual(["a.txt", "gone.txt", "new.txt"]);
    await store.restoreTree(plan.result, plan.current);
    expect(fileContent(app, "a.txt")).toBe("run 1\n");
    expect(fileContent(app, "mine.txt")).toBe("mine\n");
    expect(fileContent(repo, "outside.txt")).toBe("changed outside\n");
  });

  it("B14: one hunk of a file reverts on the file as it is now; a hunk whose lines changed since does not apply", async () => {
    const repo = tempDir("ph");
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    initRepo(repo, { "f.txt": `${lines.join("\n")}\n` });
    const store = await createCheckpointStore({ workspaceRoot: repo, shadowDir: tempDir("d") });
    const base = await store.capture({ threadId: "thr_h", runId: "run_0" });
    const edited = [...lines];
    edited[1] = "agent top";
    edited[27] = "agent bottom";
    writeFiles(repo, { "f.txt": `${edited.join("\n")}\n` });
    const run = await store.capture({ threadId: "thr_h", runId: "run_1", parentRef: base.ref });
    const [file] = await store.diff(base.ref, run.ref);
    const hunks = file!.patch.split(/^(?=@@ )/m);
    expect(hunks).toHaveLength(3); // header + two hunks

    // The person edits the middle of the file; the bottom hunk still reverts.
    const person = [...edited];
    person[14] = "the person's line";
    writeFiles(repo, { "f.txt": `${person.join("\n")}\n` });
    const now = await store.snapshotTree(null);
    const reverted = await store.reversePatchTree(now, `${hunks[0]}${hunks[2]}`);
    expect(reverted).not.toBeNull();
    const plan = await store.planPathRestore({ wrote: now, target: reverted! });
    await store.restoreTree(plan.result, plan.current);
    const expected = [...person];
    expected[27] = "line 28";
    expect(fileContent(repo, "f.txt")).toBe(`${expected.join("\n")}\n`);

    // The top hunk's line was rewritten since: it no longer applies.
    const rewritten = [...expected];
    rewritten[1] = "rewritten again";
    writeFiles(repo, { "f.txt": `${rewritten.join("\n")}\n` });
    const later = await store.snapshotTree(null);
    expect(await store.reversePatchTree(later, `${hunks[0]}${hunks[1]}`)).toBeNull();
  });
});
