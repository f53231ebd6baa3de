import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { responsesTextReply } from "@skein/fake-models";
import { PreconditionFailedError } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { MergeRefusedError } from "../src/orchestrator/parallel/bring-back-code.ts";
import { parentWithFork, settledWithCheckpoint } from "./support/bring-back-setup.ts";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { createGitWorkspace, git, hashTree } from "./support/git-workspace.ts";

const start = useCodexSkeinHarness();
const BASE = "line1\nline2\nline3\n";

describe('bring-back with code "merge" on real Codex over real git (B9)', () => {
  it("refused (typed, nothing written) unless the checkout is clean and on a branch; then one work commit and a --no-ff merge naming the fork, no checkpoint commit in the history; undone by its checkpoint", async () => {
    const h = await start();
    const ws = createGitWorkspace({ "shared.txt": BASE, "keep.txt": "keep\n" });
    const { parent, fork } = await parentWithFork(
      h,
      ws,
      "printf 'A1\\nline2\\nline3\\n' > shared.txt && printf 'a\\n' > a.txt",
    );
    const userHead = git(ws, "rev-parse", "HEAD").trim();
    const before = hashTree(ws);
    const runsBefore = (await h.thread(parent)).runOrder.length;
    const merge = () =>
      h.orchestrator.sendMessage({
        threadId: parent,
        text: "bring it back",
        bringBackFrom: fork,
        code: "merge",
      });
    const refusedWith = async (expected: string) => {
      const error = await merge().then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(MergeRefusedError);
      expect(error).toBeInstanceOf(PreconditionFailedError);
      expect((error as Error).message).toMatch(expected);
      expect((error as Error).message).toMatch(/use code "squash"/);
      expect((await h.thread(parent)).runOrder.length).toBe(runsBefore);
    };

    // An untracked file: not a clean checkout.
    writeFileSync(path.join(ws, "scratch.txt"), "mine\n");
    await refusedWith("uncommitted changes");
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe(BASE);
    rmSync(path.join(ws, "scratch.txt"));
    // A detached HEAD: no branch to merge into.
    git(ws, "checkout", "-q", "--detach");
    await refusedWith("detached HEAD");
    git(ws, "checkout", "-q", "main");
    expect(hashTree(ws)).toEqual(before);
    expect(git(ws, "rev-parse", "HEAD").trim()).toBe(userHead);

    h.server.enqueue(responsesTextReply("took it"));
    const back = await merge();
    expect(back.code?.mode).toBe("merge");
    expect(back.code?.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added a.txt",
      "modified shared.txt",
    ]);
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("A1\nline2\nline3\n");
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("a\n");
    // A clean checkout on the merge: HEAD^1 the user's commit, HEAD^2 the fork's net change.
    expect(git(ws, "status", "--porcelain", "--untracked-files=all")).toBe("");
    const merged = git(ws, "rev-parse", "HEAD").trim();
    expect(merged).toBe(back.code?.commits?.merge);
    expect(git(ws, "rev-parse", "HEAD^1").trim()).toBe(userHead);
    expect(git(ws, "rev-parse", "HEAD^2^").trim()).toBe(userHead);
    expect(git(ws, "log", "-1", "--format=%s").trim()).toBe(
      `Merge fork thread "${(await h.thread(fork)).thread!.title}" (${fork})`,
    );
    expect(git(ws, "diff", "--name-only", "HEAD^1", "HEAD^2").trim().split("\n")).toEqual([
      "a.txt",
      "shared.txt",
    ]);
    // Only the user's commit, the work commit and the merge: no Skein checkpoint commit.
    const history = git(ws, "log", "--format=%s", "HEAD").trim().split("\n");
    expect(history).toHaveLength(3);
    expect(history.some((s) => s.startsWith("skein checkpoint"))).toBe(false);
    expect(git(ws, "branch", "--contains", back.code!.commits!.work).trim()).toBe("* main");

    await h.orchestrator.waitForRun(back.runId);
    await settledWithCheckpoint(h, parent);
    const state = await h.thread(parent);
    expect(state.runs.get(back.runId)?.status).toBe("completed");
    expect([...state.transfers.values()].some((t) => t.type === "merge_back")).toBe(true);

    // Undo through the checkpoint it named: files and the branch are as before the merge.
    await h.orchestrator.rollback({ threadId: parent, checkpointId: back.code!.undoCheckpointId });
    expect(hashTree(ws)).toEqual(before);
    expect(git(ws, "rev-parse", "HEAD").trim()).toBe(userHead);
    expect(git(ws, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect((await h.thread(parent)).runs.get(back.runId)?.status).toBe("rolled_back");
  }, 240_000);
});
