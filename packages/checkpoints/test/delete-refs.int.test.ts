import { describe, expect, it } from "vitest";
import { createCheckpointStore } from "../src/index.ts";
import { git, repoWithStore, tempDir, writeFiles } from "./support/test-workspace.ts";

const refsOf = (repo: string) =>
  git(repo, "for-each-ref", "--format=%(refname)", "refs/skein/")
    .trim()
    .split("\n")
    .filter(Boolean);

describe("deleteThreadRefs (issue 33: a deleted thread's purge)", () => {
  it("removes one thread's checkpoint refs only, once; a second call finds none", async () => {
    const { repo, store } = await repoWithStore("repo", { "a.txt": "a\n" });
    writeFiles(repo, { "a.txt": "one\n" });
    await store.capture({ threadId: "thr_gone", runId: "run_1" });
    writeFiles(repo, { "a.txt": "two\n" });
    await store.capture({ threadId: "thr_gone", runId: "run_2" });
    // A thread whose id starts like the deleted one's keeps its refs.
    await store.capture({ threadId: "thr_gone2", runId: "run_1" });

    expect(await store.deleteThreadRefs("thr_gone")).toBe(2);
    expect(refsOf(repo)).toEqual(["refs/skein/checkpoints/thr_gone2/run_1"]);
    expect(await store.status("refs/skein/checkpoints/thr_gone/run_1")).toBe("missing");
    expect(await store.deleteThreadRefs("thr_gone")).toBe(0);
  });

  it("works on a plain folder's shadow store too", async () => {
    const folder = tempDir("plain");
    writeFiles(folder, { "a.txt": "a\n" });
    const store = await createCheckpointStore({
      workspaceRoot: folder,
      shadowDir: tempDir("data"),
    });
    expect(store.mode).toBe("shadow");
    await store.capture({ threadId: "thr_plain", runId: "run_1" });
    expect(await store.deleteThreadRefs("thr_plain")).toBe(1);
    expect(await store.status("refs/skein/checkpoints/thr_plain/run_1")).toBe("missing");
  });
});
