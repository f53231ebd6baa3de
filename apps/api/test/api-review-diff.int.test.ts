import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { writeFile } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { createGitWorkspace, git } from "./support/git-workspace.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function newThread(workspaceRoot: string) {
  const { projectId } = await t.client.project.create.mutate({ name: "Review", workspaceRoot });
  const { threadId } = await t.client.thread.create.mutate({
    projectId,
    // The person's dirty checkout is the thread's workspace here.
    workspace: "local",
  });
  return threadId;
}

/** Sends a message and waits until its run ended and its checkpoint is recorded. */
async function run(threadId: string, text: string) {
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId: threadId as never, text });
  const deadline = Date.now() + 15_000;
  for (;;) {
    const detail = await t.client.thread.detail.query({ threadId: threadId as never });
    const checkpoint = detail.checkpoints.find((c) => c.runId === runId);
    if (checkpoint) return { runId, checkpoint };
    if (Date.now() > deadline) throw new Error(`run ${runId} got no checkpoint`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const summary = (files: ReadonlyArray<{ path: string; status: string }>) =>
  files.map((f) => `${f.status} ${f.path}`).sort();

describe("review.diff and the first checkpoint's baseline (issue 17)", () => {
  it("a first run in a dirty git repo lists only what the run changed, with patches per file", async () => {
    const ws = createGitWorkspace({ "a.txt": "one\ntwo\n", "b.txt": "kept\n" });
    // Uncommitted work the user had before the thread started: not the agent's change.
    writeFileSync(path.join(ws, "b.txt"), "kept\nedited by me\n");
    writeFileSync(path.join(ws, "mine.txt"), "untracked before the run\n");
    const status = git(ws, "status", "--porcelain");
    const threadId = await newThread(ws);
    t.codex.enqueue([
      writeFile("a.txt", "one\nTWO\n"),
      writeFile("new.ts", "export const x = 1;\n"),
    ]);
    const { runId, checkpoint } = await run(threadId, "edit");
    expect(checkpoint.status).toBe("ready");
    expect(summary(checkpoint.files)).toEqual(["added new.ts", "modified a.txt"]);

    const diff = await t.client.review.diff.query({ threadId: threadId as never, runId });
    expect(diff.to?.runId).toBe(runId);
    expect(diff.from).toBeNull();
    expect(summary(diff.files)).toEqual(["added new.ts", "modified a.txt"]);
    const a = diff.files.find((f) => f.path === "a.txt")!;
    expect(a).toMatchObject({ additions: 1, deletions: 1, truncated: false, binary: false });
    expect(a.patch).toMatch(/^diff --git a\/a.txt b\/a.txt/);
    expect(a.patch).toContain("\n-two\n+TWO\n");
    // The thread's whole diff from its start is the same one run here.
    const whole = await t.client.review.diff.query({ threadId: threadId as never });
    expect(summary(whole.files)).toEqual(summary(diff.files));
    // The baseline and checkpoints live under hidden refs: the user's status is untouched.
    expect(status).toBe(" M b.txt\n?? mine.txt\n");
    expect(git(ws, "status", "--porcelain")).toBe(" M a.txt\n M b.txt\n?? mine.txt\n?? new.ts\n");
  });

  it("a plain folder's pre-existing files are not 'added' in the first checkpoint", async () => {
    const ws = mkdtempSync(path.join(tmpdir(), "skein-review-plain-"));
    writeFileSync(path.join(ws, "README.md"), "# existing\n");
    writeFileSync(path.join(ws, "main.py"), "print('hi')\n");
    const threadId = await newThread(ws);
    t.codex.enqueue([writeFile("main.py", "print('hello')\n")]);
    const { runId, checkpoint } = await run(threadId, "edit");
    expect(summary(checkpoint.files)).toEqual(["modified main.py"]);
    const diff = await t.client.review.diff.query({ threadId: threadId as never, runId });
    expect(summary(diff.files)).toEqual(["modified main.py"]);
    expect(diff.files[0]?.patch).toContain("-print('hi')\n+print('hello')");
  });

  it("B10: per run, whole thread and 'since I last looked' diff the right pair of checkpoints", async () => {
    const ws = createGitWorkspace({ "a.txt": "base\n" });
    const threadId = (await newThread(ws)) as never;
    t.codex.enqueue([writeFile("a.txt", "run one\n")]);
    const first = await run(threadId, "run 1");
    t.codex.enqueue([writeFile("two.txt", "2\n"), writeFile("a.txt", null)]);
    const second = await run(threadId, "run 2");

    const runTwo = await t.client.review.diff.query({ threadId, runId: second.runId });
    expect(runTwo.from?.checkpointId).toBe(first.checkpoint.id);
    expect(runTwo.to?.checkpointId).toBe(second.checkpoint.id);
    expect(summary(runTwo.files)).toEqual(["added two.txt", "deleted a.txt"]);

    const whole = await t.client.review.diff.query({ threadId });
    expect(whole.from).toBeNull();
    expect(summary(whole.files)).toEqual(["added two.txt", "deleted a.txt"]);

    const since = await t.client.review.diff.query({ threadId, sinceRunId: first.runId });
    expect(since.from?.runId).toBe(first.runId);
    expect(summary(since.files)).toEqual(summary(runTwo.files));
    const upToDate = await t.client.review.diff.query({ threadId, sinceRunId: second.runId });
    expect(upToDate.files).toEqual([]);
  });

  it("refuses bad input with typed errors; a thread without checkpoints has nothing to show", async () => {
    const ws = createGitWorkspace({ "a.txt": "x\n" });
    const threadId = (await newThread(ws)) as never;
    expect(await t.client.review.diff.query({ threadId })).toEqual({
      from: null,
      to: null,
      files: [],
    });
    const unknownRun = await refusal(
      t.client.review.diff.query({ threadId, runId: "run_nope" as never }),
    );
    expect(unknownRun.code).toBe("NOT_FOUND");
    const both = await refusal(
      t.client.review.diff.query({
        threadId,
        runId: "run_a" as never,
        sinceRunId: "run_b" as never,
      }),
    );
    expect(both.code).toBe("BAD_REQUEST");
    const unknownThread = await refusal(
      t.client.review.diff.query({ threadId: "thr_unknown" as never }),
    );
    expect(unknownThread.code).toBe("NOT_FOUND");
  });
});
