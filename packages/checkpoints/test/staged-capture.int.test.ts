import { copyFileSync, readdirSync, rmSync, utimesSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointStore } from "../src/index.ts";
import { CheckpointError } from "../src/errors.ts";
import { git, initRepo, tempDir, userRepoState, writeFiles } from "./support/test-workspace.ts";

/** A repository and two stores over one shadow dir: two instances (or a restart) of Skein. */
async function sharedStores() {
  const repo = tempDir("staged");
  initRepo(repo, { "src/app.ts": "committed\n", "keep.txt": "kept\n" });
  const shadowDir = tempDir("data");
  const open = () => createCheckpointStore({ workspaceRoot: repo, shadowDir });
  return { repo, shadowDir, first: await open(), second: await open() };
}

const BASELINE = { threadId: "thr_1", runId: "baseline" };
const stagedFiles = (shadowDir: string) =>
  readdirSync(path.join(shadowDir, "scratch")).filter((name) => name.startsWith("staged."));

describe("a staged capture (issue 34: the folder read before a turn, the commit after it)", () => {
  it("holds the folder as it was read: edits made after staging reach only the next checkpoint", async () => {
    const { repo, shadowDir, first } = await sharedStores();
    writeFiles(repo, { "src/app.ts": "uncommitted before the turn\n" });
    const before = userRepoState(repo);
    await first.stageCapture(BASELINE);
    // The turn runs here and edits the folder; nothing of it may reach the baseline.
    writeFiles(repo, { "src/app.ts": "written by the turn\n", "new.txt": "made by the turn\n" });
    expect(await first.status("refs/skein/checkpoints/thr_1/baseline")).toBe("missing");

    expect(await first.completeStaged(BASELINE)).toBe(true);
    const baseline = "refs/skein/checkpoints/thr_1/baseline";
    expect(await first.status(baseline)).toBe("ready");
    const run = await first.capture({ threadId: "thr_1", runId: "run_1", parentRef: baseline });
    expect(run.files.map((f) => [f.path, f.status])).toEqual([
      ["new.txt", "added"],
      ["src/app.ts", "modified"],
    ]);
    const [change] = await first.diff(baseline, run.ref, ["src/app.ts"]);
    expect(change?.patch).toContain("-uncommitted before the turn");
    expect(change?.patch).toContain("+written by the turn");
    // The user's own index and HEAD were never touched; nothing staged is left behind.
    expect(userRepoState(repo).head).toBe(before.head);
    expect(stagedFiles(shadowDir)).toEqual([]);
    expect(await first.completeStaged(BASELINE)).toBe(false);
  });

  it("outlives the process that staged it: another store over the same dir writes it, once", async () => {
    const { repo, shadowDir, first, second } = await sharedStores();
    writeFiles(repo, { "src/app.ts": "read before the crash\n" });
    await first.stageCapture(BASELINE);
    writeFiles(repo, { "src/app.ts": "after\n" });
    // Both "instances" ask at once: one ref, both told it exists.
    const [a, b] = await Promise.all([
      second.completeStaged(BASELINE),
      first.completeStaged(BASELINE),
    ]);
    expect([a, b]).toContain(true);
    const ref = "refs/skein/checkpoints/thr_1/baseline";
    expect(git(repo, "show", `${ref}:src/app.ts`)).toBe("read before the crash");
    const written = git(repo, "rev-parse", ref);
    // A ref once written is never moved by a later completion under the same name.
    writeFiles(repo, { "src/app.ts": "a later reading\n" });
    await second.stageCapture(BASELINE);
    expect(await second.completeStaged(BASELINE)).toBe(true);
    expect(git(repo, "rev-parse", ref)).toBe(written);
    expect(stagedFiles(shadowDir)).toEqual([]);
  });

  it("never replaces an older reading: staging again writes the one already staged", async () => {
    const { repo, first } = await sharedStores();
    writeFiles(repo, { "src/app.ts": "first reading\n" });
    await first.stageCapture(BASELINE);
    writeFiles(repo, { "src/app.ts": "changed by a run that died\n" });
    await first.stageCapture(BASELINE);
    expect(git(repo, "show", "refs/skein/checkpoints/thr_1/baseline:src/app.ts")).toBe(
      "first reading",
    );
  });

  it("is dropped with its thread's refs; a torn staging is not a reading and the next staging replaces it", async () => {
    const { shadowDir, first } = await sharedStores();
    await first.stageCapture(BASELINE);
    await first.stageCapture({ threadId: "thr_10", runId: "baseline" });
    expect(await first.deleteThreadRefs("thr_1")).toBe(0);
    expect(stagedFiles(shadowDir)).toEqual([
      "staged.thr_10.baseline.index",
      "staged.thr_10.baseline.json",
    ]);
    // A crash between the start file and the index: the start alone is not a reading, and the
    // next staging under that name replaces it.
    const scratch = path.join(shadowDir, "scratch");
    rmSync(path.join(scratch, "staged.thr_10.baseline.index"));
    const torn = { threadId: "thr_10", runId: "baseline" };
    expect(await first.completeStaged(torn)).toBe(false);
    expect(await first.status("refs/skein/checkpoints/thr_10/baseline")).toBe("missing");
    await first.stageCapture(torn);
    expect(await first.completeStaged(torn)).toBe(true);
    expect(await first.status("refs/skein/checkpoints/thr_10/baseline")).toBe("ready");
    expect(stagedFiles(shadowDir)).toEqual([]);
  });

  it("a completion's copy left by a crash is swept after an hour; the staged reading is kept", async () => {
    const { repo, shadowDir, first } = await sharedStores();
    await first.stageCapture(BASELINE);
    const scratch = path.join(shadowDir, "scratch");
    const copy = path.join(scratch, "staged.thr_1.baseline.index.0badc0de");
    copyFileSync(path.join(scratch, "staged.thr_1.baseline.index"), copy);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(copy, twoHoursAgo, twoHoursAgo);
    const reopened = await createCheckpointStore({ workspaceRoot: repo, shadowDir });
    expect(stagedFiles(shadowDir)).toEqual([
      "staged.thr_1.baseline.index",
      "staged.thr_1.baseline.json",
    ]);
    expect(await reopened.completeStaged(BASELINE)).toBe(true);
  });

  it("rejects ids outside what a ref segment holds, writing nothing", async () => {
    const { shadowDir, first } = await sharedStores();
    await expect(
      first.stageCapture({ threadId: "../x", runId: "baseline" }),
    ).rejects.toBeInstanceOf(CheckpointError);
    expect(stagedFiles(shadowDir)).toEqual([]);
  });
});
