import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execCommandReply, responsesTextReply } from "@skein/fake-models";
import { MergeConflictError, type ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { settledWithCheckpoint } from "./support/bring-back-setup.ts";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { cwdScripts } from "./support/cwd-scripts.ts";
import { createGitWorkspace, git, hashTree } from "./support/git-workspace.ts";

const start = useCodexSkeinHarness();
const BASE = "line1\nline2\nline3\n";
/**
 * Three worktrees' commands run at once on a busy machine: no login shell (a slow profile), and
 * Codex waits for each to finish before its turn goes on, so the edits land within the run.
 */
const exec = (command: string) =>
  execCommandReply(command, { extra: { login: false, yield_time_ms: 60_000 } });

describe("fan-out of a project that is a subfolder of a git repository (B9)", () => {
  it("forks work in the same subfolder of their worktrees; compare, overlaps and bring-back see only that subfolder, relative to it; nothing outside comes back", async () => {
    const h = await start();
    const repo = createGitWorkspace({ "README.md": "root\n" });
    mkdirSync(path.join(repo, "app"));
    mkdirSync(path.join(repo, "other"));
    writeFileSync(path.join(repo, "app", "shared.txt"), BASE);
    writeFileSync(path.join(repo, "other", "out.txt"), "out\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "layout");
    const ws = path.join(repo, "app");
    const orchestrator = h.orchestrator;
    const { projectId } = await orchestrator.createProject({ name: "sub", workspaceRoot: ws });
    const { threadId: parent } = await orchestrator.createThread({
      projectId,
      provider: "codex",
      runtimeMode: "full-access",
      // The person's main thread, in their folder: bring-back lands there (forks get worktrees).
      workspace: "local",
    });
    h.server.enqueue(responsesTextReply("parent ready"));
    await orchestrator.waitForRun(await h.send(parent, "get ready"));
    await settledWithCheckpoint(h, parent);

    // Every fork also writes outside the subfolder: that must stay in its own worktree.
    const worktrees = path.join(h.dataDir, "worktrees");
    const codex = cwdScripts((cwd) => cwd.startsWith(worktrees));
    h.server.enqueue(
      ...codex.script(
        "a",
        exec(
          "printf 'A1\\nline2\\nline3\\n' > shared.txt && printf 'a\\n' > a.txt && printf 'A\\n' > ../other/out.txt",
        ),
        responsesTextReply("A done"),
      ),
      ...codex.script(
        "b",
        exec("printf 'B1\\nline2\\nline3\\n' > shared.txt && printf 'b\\n' > ../b-out.txt"),
        responsesTextReply("B done"),
      ),
      ...codex.script(
        "c",
        exec("printf 'c\\n' > c.txt && printf 'C\\n' > ../other/out.txt"),
        responsesTextReply("C done"),
      ),
    );
    const { forks } = await orchestrator.fanOut({
      threadId: parent,
      text: "make your change",
      targets: [{ provider: "codex" }, { provider: "codex" }, { provider: "codex" }],
      isolated: true,
    });
    const byPath = new Map<string, ThreadId>();
    for (const fork of forks) {
      const state = await settledWithCheckpoint(h, fork.threadId);
      const own = state.thread!.worktreePath!;
      // The project's subfolder inside the fork's own worktree, on the fork's branch.
      expect(own).toBe(path.join(worktrees, fork.threadId, "app"));
      expect(readFileSync(path.join(own, "..", "README.md"), "utf8")).toBe("root\n");
      expect(git(own, "rev-parse", "--abbrev-ref", "HEAD").trim()).toBe(`skein/${fork.threadId}`);
      byPath.set(own, fork.threadId);
    }
    const of = (tag: string) => byPath.get(codex.owner(tag) ?? "")!;
    const [forkA, forkB, forkC] = [of("a"), of("b"), of("c")];
    expect(new Set([forkA, forkB, forkC]).size).toBe(3);
    // The edits outside did happen, in the forks' own checkouts.
    expect(readFileSync(path.join(worktrees, forkA, "other", "out.txt"), "utf8")).toBe("A\n");
    expect(readFileSync(path.join(worktrees, forkB, "b-out.txt"), "utf8")).toBe("b\n");

    const comparison = await orchestrator.compareForks({ threadIds: [forkA, forkB, forkC] });
    const files = (id: ThreadId) =>
      comparison.forks
        .find((f) => f.threadId === id)!
        .files!.map((f) => `${f.status} ${f.path}`)
        .sort();
    expect(files(forkA)).toEqual(["added a.txt", "modified shared.txt"]);
    expect(files(forkB)).toEqual(["modified shared.txt"]);
    expect(files(forkC)).toEqual(["added c.txt"]);
    expect(comparison.overlaps).toEqual([
      { path: "shared.txt", threadIds: [forkA, forkB, forkC].filter((id) => id !== forkC) },
    ]);

    // A by merge: the commits change the subfolder only.
    const userHead = git(repo, "rev-parse", "HEAD").trim();
    h.server.enqueue(responsesTextReply("took A"));
    const backA = await orchestrator.sendMessage({
      threadId: parent,
      text: "bring A back",
      bringBackFrom: forkA,
      code: "merge",
    });
    expect(backA.code?.files.map((f) => f.path).sort()).toEqual(["a.txt", "shared.txt"]);
    expect(git(repo, "rev-parse", "HEAD^1").trim()).toBe(userHead);
    expect(git(repo, "diff", "--name-only", userHead, "HEAD").trim().split("\n")).toEqual([
      "app/a.txt",
      "app/shared.txt",
    ]);
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
    await orchestrator.waitForRun(backA.runId);
    await settledWithCheckpoint(h, parent);

    // C by squash: its file lands in the subfolder, its edit outside does not.
    h.server.enqueue(responsesTextReply("took C"));
    const backC = await orchestrator.sendMessage({
      threadId: parent,
      text: "bring C back",
      bringBackFrom: forkC,
      code: "squash",
    });
    expect(backC.code?.files.map((f) => `${f.status} ${f.path}`)).toEqual(["added c.txt"]);
    expect(readFileSync(path.join(ws, "c.txt"), "utf8")).toBe("c\n");
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("?? app/c.txt\n");
    await orchestrator.waitForRun(backC.runId);
    await settledWithCheckpoint(h, parent);

    // B clashes in shared.txt, named relative to the subfolder; nothing is written anywhere.
    const before = hashTree(repo);
    const refused = await orchestrator
      .sendMessage({ threadId: parent, text: "bring B back", bringBackFrom: forkB, code: "squash" })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(MergeConflictError);
    expect((refused as MergeConflictError).files).toEqual(["shared.txt"]);
    expect(hashTree(repo)).toEqual(before);

    // Outside the subfolder the repository is as the user committed it.
    expect(readFileSync(path.join(repo, "other", "out.txt"), "utf8")).toBe("out\n");
    expect(existsSync(path.join(repo, "b-out.txt"))).toBe(false);

    // Hygiene knows these forks (their workspace is a subfolder of the worktree): the merged
    // ones hold edits outside it that no checkpoint captured, so they go only when forced.
    const kept = await orchestrator.sweepWorktrees({ graceMs: 0 });
    expect(kept.removed).toEqual([]);
    const reasons = (list: Array<{ threadId: string; reason: string }>) =>
      Object.fromEntries(list.map((r) => [r.threadId, r.reason]));
    expect(reasons(kept.kept)).toEqual({
      [forkA]: "changes no checkpoint captured (force to remove)",
      [forkB]: "live fork",
      [forkC]: "changes no checkpoint captured (force to remove)",
    });
    const forced = await orchestrator.sweepWorktrees({ graceMs: 0, force: true });
    expect(reasons(forced.removed)).toEqual({ [forkA]: "merged", [forkC]: "merged" });
    expect(existsSync(path.join(worktrees, forkA))).toBe(false);
    expect(existsSync(path.join(worktrees, forkB, "app"))).toBe(true);
  }, 300_000);
});
