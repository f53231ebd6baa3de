import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore, CheckpointMissingError } from "../src/index.ts";
import {
  fileContent,
  git,
  hashTree,
  initRepo,
  listDirs,
  makeExecutable,
  sh,
  tempDir,
  userRepoState,
  writeFiles,
} from "./support/test-workspace.ts";

/** Hashes of the non-ignored files: what a checkpoint is responsible for. */
function trackedHashes(root: string): Record<string, string> {
  const all = hashTree(root);
  return Object.fromEntries(Object.entries(all).filter(([p]) => !/\.log$|^build\//.test(p)));
}

async function threeRuns() {
  const repo = tempDir("restore");
  initRepo(repo, {
    "src/main.ts": "export const v = 1;\n",
    "src/util.ts": "export const u = 1;\n",
    "README.md": "# readme\n",
    ".gitignore": "*.log\nbuild/\n",
  });
  writeFiles(repo, { "build/cache.bin": "user build output\n", "user.log": "user log\n" });
  const store = await createCheckpointStore({ workspaceRoot: repo, shadowDir: tempDir("data") });
  const userBefore = userRepoState(repo);

  // Run 1: edit + new untracked file.
  writeFiles(repo, { "src/main.ts": "export const v = 2;\n", "notes.md": "run 1\n" });
  const run1 = await store.capture({ threadId: "thr_r", runId: "run_1" });
  const hashes1 = trackedHashes(repo);

  // Run 2: deletes, new nested folders, an executable script, binary content.
  sh(repo, "rm src/util.ts && mkdir -p gen/deep/er && echo x > gen/deep/er/x.ts");
  writeFiles(repo, { "run.sh": "#!/bin/sh\necho hi\n", "blob.bin": Buffer.from([0, 1, 2, 3]) });
  makeExecutable(repo, "run.sh");
  const run2 = await store.capture({ threadId: "thr_r", runId: "run_2", parentRef: run1.ref });
  const hashes2 = trackedHashes(repo);

  // Run 3: more edits, and ignored output the run leaves behind.
  writeFiles(repo, {
    "src/main.ts": "export const v = 3;\n",
    "notes.md": "run 3\n",
    "run3.log": "x",
  });
  sh(repo, "echo compiled > build/main.js && rm README.md");
  const run3 = await store.capture({ threadId: "thr_r", runId: "run_3", parentRef: run2.ref });
  const hashes3 = trackedHashes(repo);

  return { repo, store, userBefore, run1, run2, run3, hashes1, hashes2, hashes3 };
}

describe("restore", () => {
  it("restores run 1 of 3 byte for byte and removes files created later", async () => {
    const t = await threeRuns();
    const ignoredBefore = {
      cache: fileContent(t.repo, "build/cache.bin"),
      main: fileContent(t.repo, "build/main.js"),
      log: fileContent(t.repo, "run3.log"),
      user: fileContent(t.repo, "user.log"),
    };

    const restored = await t.store.restore(t.run1.ref);

    expect(trackedHashes(t.repo)).toEqual(t.hashes1);
    expect(existsSync(path.join(t.repo, "run.sh"))).toBe(false);
    expect(existsSync(path.join(t.repo, "gen"))).toBe(false); // emptied folders go too
    expect(listDirs(t.repo)).toEqual(["build", "src"]);
    expect(restored.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added README.md",
      "added src/util.ts",
      "deleted blob.bin",
      "deleted gen/deep/er/x.ts",
      "deleted run.sh",
      "modified notes.md",
      "modified src/main.ts",
    ]);
    // Ignored files (the user's and the runs') are never touched.
    expect({
      cache: fileContent(t.repo, "build/cache.bin"),
      main: fileContent(t.repo, "build/main.js"),
      log: fileContent(t.repo, "run3.log"),
      user: fileContent(t.repo, "user.log"),
    }).toEqual(ignoredBefore);
    // The user's HEAD, index and branches are not involved.
    const after = userRepoState(t.repo);
    expect({ ...after, status: "" }).toEqual({ ...t.userBefore, status: "" });
    expect(after.status.split("\n").sort()).toEqual(["?? notes.md", " M src/main.ts"].sort());

    // Rolling forward works the same way, including the executable bit.
    await t.store.restore(t.run2.ref);
    expect(trackedHashes(t.repo)).toEqual(t.hashes2);
    await t.store.restore(t.run3.ref);
    expect(trackedHashes(t.repo)).toEqual(t.hashes3);
    expect(await t.store.restore(t.run3.ref)).toMatchObject({ files: [] });
  });

  it("restores edits made after the last capture too (uncaptured work is replaced)", async () => {
    const t = await threeRuns();
    writeFiles(t.repo, { "src/main.ts": "uncaptured\n", "stray.txt": "stray\n" });
    await t.store.restore(t.run2.ref);
    expect(trackedHashes(t.repo)).toEqual(t.hashes2);
  });

  it("refuses a checkpoint whose ref was deleted behind Skein's back, changing nothing", async () => {
    const t = await threeRuns();
    git(t.repo, "update-ref", "-d", t.run1.ref);
    const before = hashTree(t.repo);
    expect(await t.store.status(t.run1.ref)).toBe("missing");
    expect(await t.store.status(t.run2.ref)).toBe("ready");
    await expect(t.store.restore(t.run1.ref)).rejects.toBeInstanceOf(CheckpointMissingError);
    await expect(t.store.restore(t.run1.ref)).rejects.toThrow(
      "Checkpoint refs/skein/checkpoints/thr_r/run_1 is missing",
    );
    expect(hashTree(t.repo)).toEqual(before);
  });
});
