import { readFileSync } from "node:fs";
import path from "node:path";
import {
  anthropicBashReply,
  anthropicTextReply,
  execCommandReply,
  responsesTextReply,
} from "@skein/fake-models";
import { MergeConflictError, type ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { cwdScripts } from "./support/cwd-scripts.ts";
import { createGitWorkspace, git, hashTree } from "./support/git-workspace.ts";

const harness = useClaudeSkeinHarness();

const BASE = "line1\nline2\nline3\n";

/**
 * Forks' commands run at once on a busy machine: no login shell (a slow or locked profile would
 * let the turn end before the command wrote its files), and time for the command to finish.
 */
const NO_LOGIN = { extra: { login: false, yield_time_ms: 60_000 } };

describe("parallel agents on real Codex and Claude runtimes over real git", () => {
  it("B9/T8: fan out to Codex, Claude, Codex → compare → overlap → bring one back with its code → a conflicting one is refused untouched → undo the merge", async () => {
    const h = await harness({ codex: "real" });
    const openai = h.openai!;
    const ws = createGitWorkspace({ "shared.txt": BASE, "keep.txt": "keep\n" });
    const orchestrator = h.orchestrator;
    const { projectId } = await orchestrator.createProject({ name: "fan", workspaceRoot: ws });
    const { threadId: parent } = await orchestrator.createThread({
      projectId,
      provider: "codex",
      runtimeMode: "full-access",
      // The person's main thread, in their folder: bring-back lands there (forks get worktrees).
      workspace: "local",
    });
    openai.enqueue(responsesTextReply("parent ready"));
    const first = await h.send(parent, "get ready");
    expect(first.state.runs.get(first.runId)?.status).toBe("completed");

    // Two Codex forks ask the one fake model at once: each script sticks to one worktree.
    const worktrees = path.join(h.dataDir, "worktrees");
    const codex = cwdScripts((cwd) => cwd.startsWith(worktrees));
    openai.enqueue(
      ...codex.script(
        "edits-shared",
        execCommandReply(
          "printf 'A1\\nline2\\nline3\\n' > shared.txt && printf 'a\\n' > a.txt",
          NO_LOGIN,
        ),
        responsesTextReply("A changed shared.txt and added a.txt"),
      ),
      ...codex.script(
        "adds-c",
        execCommandReply("printf 'c\\n' > c.txt", NO_LOGIN),
        responsesTextReply("C added c.txt"),
      ),
    );
    h.anthropic.enqueue(
      anthropicBashReply("printf 'B1\\nline2\\nline3\\n' > shared.txt && printf 'b\\n' > b.txt"),
      anthropicTextReply("B changed shared.txt and added b.txt"),
    );

    const { forks } = await orchestrator.fanOut({
      threadId: parent,
      text: "make your change",
      targets: [{ provider: "codex" }, { provider: "claude" }, { provider: "codex" }],
      isolated: true,
      commandId: "fan-1",
    });
    expect(forks.map((f) => f.provider)).toEqual(["codex", "claude", "codex"]);
    const paths = new Set<string>();
    for (const fork of forks) {
      const state = await h.thread(fork.threadId);
      expect(state.thread?.lineage?.parentThreadId).toBe(parent);
      expect(state.thread?.worktreePath?.startsWith(worktrees)).toBe(true);
      expect(state.thread?.branch).toBe(`skein/${fork.threadId}`);
      paths.add(state.thread!.worktreePath!);
    }
    expect(paths.size).toBe(3);
    // The same command id answers the same forks and makes no new ones.
    const again = await orchestrator.fanOut({
      threadId: parent,
      text: "make your change",
      targets: [{ provider: "codex" }, { provider: "claude" }, { provider: "codex" }],
      isolated: true,
      commandId: "fan-1",
    });
    expect(again.forks).toEqual(forks);

    // All three run to completion, each with its checkpoint.
    for (const fork of forks) {
      await until(async () => {
        const state = await h.thread(fork.threadId);
        const run = state.runs.get(state.runOrder.at(-1)!);
        return run?.status === "completed" && run.checkpointId !== null;
      }, `fork ${fork.threadId} completed with a checkpoint`);
    }
    const ids = forks.map((f) => f.threadId);
    const worktreeOf = new Map<string, ThreadId>();
    for (const id of ids) worktreeOf.set((await h.thread(id)).thread!.worktreePath!, id);
    const byTag = (tag: string) => {
      const id = worktreeOf.get(codex.owner(tag) ?? "");
      if (!id) throw new Error(`script ${tag} went to ${codex.owner(tag)}, not to a fork worktree`);
      return { threadId: id };
    };
    const forkA = byTag("edits-shared").threadId;
    const forkC = byTag("adds-c").threadId;
    const forkB = ids[1]!;
    expect(new Set([forkA, forkB, forkC]).size).toBe(3);

    // Compare: each fork's own diff against the fork point, and the overlap on shared.txt.
    const comparison = await orchestrator.compareForks({
      threadIds: ids,
      checkCommand: "test -f shared.txt && cat shared.txt | head -1",
    });
    const files = (id: ThreadId) =>
      comparison.forks
        .find((f) => f.threadId === id)!
        .files!.map((f) => `${f.status} ${f.path} +${f.additions} -${f.deletions}`)
        .sort();
    expect(files(forkA)).toEqual(["added a.txt +1 -0", "modified shared.txt +1 -1"]);
    expect(files(forkB)).toEqual(["added b.txt +1 -0", "modified shared.txt +1 -1"]);
    expect(files(forkC)).toEqual(["added c.txt +1 -0"]);
    for (const fork of comparison.forks) {
      expect(fork.status).toBe("completed");
      expect(fork.durationMs).toBeGreaterThanOrEqual(0);
      expect(fork.check).toMatchObject({ exitCode: 0, passed: true, timedOut: false });
    }
    const checkOf = (id: ThreadId) => comparison.forks.find((f) => f.threadId === id)!.check!;
    expect(checkOf(forkA).output).toBe("A1\n");
    expect(checkOf(forkB).output).toBe("B1\n");
    expect(comparison.overlaps).toEqual([
      { path: "shared.txt", threadIds: ids.filter((id) => id !== forkC) },
    ]);
    // The parent's workspace is untouched by all of it.
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe(BASE);

    // Bring fork A back: its files and its conversation arrive in one command.
    const beforeMerge = hashTree(ws);
    openai.enqueue(responsesTextReply("parent took A"));
    const back = await orchestrator.sendMessage({
      threadId: parent,
      text: "bring A back",
      bringBackFrom: forkA,
      code: "squash",
    });
    expect(back.code?.mode).toBe("squash");
    expect(back.code?.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added a.txt",
      "modified shared.txt",
    ]);
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("A1\nline2\nline3\n");
    expect(readFileSync(path.join(ws, "a.txt"), "utf8")).toBe("a\n");
    await orchestrator.waitForRun(back.runId);
    const afterA = await h.thread(parent);
    const transfer = [...afterA.transfers.values()].find((t) => t.type === "merge_back");
    expect(transfer).toMatchObject({ sourceThreadId: forkA, targetRunId: back.runId });
    expect(afterA.runs.get(back.runId)?.status).toBe("completed");
    // The user's branch, index and HEAD never moved.
    expect(git(ws, "log", "--oneline").trim().split("\n")).toHaveLength(1);

    // Fork B changed the same line: refused with the file listed, nothing written.
    await until(
      async () => (await h.thread(parent)).runs.get(back.runId)?.checkpointId != null,
      "bring-back checkpoint",
    );
    const beforeB = hashTree(ws);
    const statusBefore = git(ws, "status", "--porcelain");
    const runsBefore = (await h.thread(parent)).runOrder.length;
    const refused = await orchestrator
      .sendMessage({ threadId: parent, text: "bring B back", bringBackFrom: forkB, code: "squash" })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(MergeConflictError);
    expect((refused as MergeConflictError).code).toBe("conflict");
    expect((refused as MergeConflictError).files).toEqual(["shared.txt"]);
    expect(hashTree(ws)).toEqual(beforeB);
    expect(git(ws, "status", "--porcelain")).toBe(statusBefore);
    expect((await h.thread(parent)).runOrder.length).toBe(runsBefore);

    // Fork C touches other files: it merges on top of A.
    openai.enqueue(responsesTextReply("parent took C"));
    const backC = await orchestrator.sendMessage({
      threadId: parent,
      text: "bring C back",
      bringBackFrom: forkC,
      code: "squash",
    });
    await orchestrator.waitForRun(backC.runId);
    expect(readFileSync(path.join(ws, "c.txt"), "utf8")).toBe("c\n");
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("A1\nline2\nline3\n");

    // Undo A's merge through the checkpoint it named: the workspace is as before A came back.
    await orchestrator.rollback({ threadId: parent, checkpointId: back.code!.undoCheckpointId });
    expect(hashTree(ws)).toEqual(beforeMerge);
    const rolled = await h.thread(parent);
    expect(rolled.runs.get(back.runId)?.status).toBe("rolled_back");
    expect(rolled.runs.get(backC.runId)?.status).toBe("rolled_back");
  }, 240_000);
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
