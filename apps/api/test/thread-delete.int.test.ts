import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { createGitWorkspace, git } from "./support/git-workspace.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { until } from "./support/until.ts";

// Issue 33 item 8 on the real SQLite store and real git: a thread is deleted softly, then purged
// past the grace period (its worktree and checkpoint refs, exactly once); a run in progress
// refuses the delete in words; a project goes with all its threads or not at all.

let t: ScriptedTestServer;
let ws: string;
beforeEach(async () => {
  t = await startScriptedServer();
  ws = createGitWorkspace({ "f.txt": "zero\n" });
});
afterEach(async () => {
  await t.close();
});

const edit = (file: string, content: string) => [
  { type: "file_change" as const, path: file, diff: "", content },
];

const refsOf = (threadId: string) =>
  git(ws, "for-each-ref", "--format=%(refname)", `refs/skein/checkpoints/${threadId}/`)
    .trim()
    .split("\n")
    .filter(Boolean);

const eventsOf = async (type: string) =>
  (await t.store.readAll(0)).filter((event) => event.type === type);

/** A run completes and its checkpoint is ready. */
async function settledRun(threadId: string, text: string, file: string) {
  t.codex.enqueue(edit(file, `${text}\n`));
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await eventually(async () => {
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.checkpoints.find((c) => c.runId === runId)?.status).toBe("ready");
  }, 30_000);
}

async function projectWithThread() {
  // The thread works in the person's checkout (its forks get their own worktrees).
  const { projectId } = await t.client.project.create.mutate({
    name: "p",
    workspaceRoot: ws,
    settings: { threadWorkspace: "local" },
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId, provider: "codex" });
  await settledRun(threadId, "one", "f.txt");
  return { projectId, threadId };
}

/** A run waiting on an approval: in progress until it is answered. */
async function waitingRun(threadId: string) {
  t.codex.enqueue([
    { type: "command", command: "ls", output: "f.txt", approval: true },
    { type: "text", text: "done" },
  ]);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: "list" });
  const pending = await until(
    () => t.client.request.pending.query({ threadId }),
    (list) => list.requests.length === 1,
  );
  return { runId, requestId: pending.requests[0]!.id };
}

async function finish(threadId: string, run: { runId: string; requestId: string }) {
  await t.client.request.respond.mutate({ requestId: run.requestId, decision: "accept" });
  await eventually(async () => {
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs.find((r) => r.id === run.runId)?.status).toBe("completed");
  }, 30_000);
}

describe("thread.delete and the purge (issue 33 item 8)", () => {
  it("deletes softly, purges an isolated fork's worktree, branch and refs once, after the grace period", async () => {
    const { threadId: parent } = await projectWithThread();
    const { threadId: fork } = await t.client.thread.fork.mutate({
      threadId: parent,
      isolatedWorkspace: true,
    });
    await settledRun(fork, "two", "g.txt");
    const worktree = path.join(t.dataDir, "worktrees", fork);
    expect(existsSync(worktree)).toBe(true);
    expect(refsOf(fork).length).toBeGreaterThan(0);
    const parentRefs = refsOf(parent);

    await t.client.thread.delete.mutate({ threadId: fork });
    const shells = await t.client.thread.shells.query();
    expect(shells.threads.map((s) => s.id)).not.toContain(fork);
    expect((await t.client.thread.detail.query({ threadId: fork })).thread.deletedAt).not.toBe(
      null,
    );
    const again = await refusal(t.client.thread.delete.mutate({ threadId: fork }));
    expect(again.code).toBe("PRECONDITION_FAILED");
    expect(again.message).toMatch(/already deleted/);
    const message = await refusal(
      t.client.thread.sendMessage.mutate({ threadId: fork, text: "x" }),
    );
    expect(message.message).toMatch(/deleted/);

    // Within the grace period (7 days by default) nothing on disk moves.
    expect(await t.client.thread.purgeDeleted.mutate({})).toEqual({ purged: [], kept: [] });
    expect(existsSync(worktree)).toBe(true);

    // Two purges at once: one removes, one appends; the other finds nothing left to do.
    const [a, b] = await Promise.all([
      t.client.thread.purgeDeleted.mutate({ graceMs: 0 }),
      t.client.thread.purgeDeleted.mutate({ graceMs: 0 }),
    ]);
    const purged = [...a.purged, ...b.purged];
    expect(purged).toEqual([
      { threadId: fork, worktreePath: worktree, refsDeleted: expect.any(Number) },
    ]);
    expect(purged[0]!.refsDeleted).toBeGreaterThan(0);
    expect(await eventsOf("ThreadPurged")).toHaveLength(1);
    expect(existsSync(worktree)).toBe(false);
    expect(refsOf(fork)).toEqual([]);
    expect(git(ws, "branch", "--list", `skein/${fork}`).trim()).toBe("");
    // The parent and the person's checkout are untouched.
    expect(refsOf(parent)).toEqual(parentRefs);
    expect(readFileSync(path.join(ws, "f.txt"), "utf8")).toBe("one\n");
    expect(git(ws, "worktree", "list", "--porcelain")).not.toContain(fork);
    expect(await t.client.thread.purgeDeleted.mutate({ graceMs: 0 })).toEqual({
      purged: [],
      kept: [],
    });
  });

  it("refuses while a run is in progress, in words, and deletes once it has ended", async () => {
    const { threadId } = await projectWithThread();
    const run = await waitingRun(threadId);
    const busy = await refusal(t.client.thread.delete.mutate({ threadId }));
    expect(busy.code).toBe("CONFLICT");
    expect(busy.message).toMatch(/run in progress: interrupt it/);
    expect((await t.client.thread.detail.query({ threadId })).thread.deletedAt).toBe(null);
    await finish(threadId, run);
    await t.client.thread.delete.mutate({ threadId });
    expect((await t.client.thread.detail.query({ threadId })).thread.deletedAt).not.toBe(null);
  });

  it("a thread without a worktree keeps the person's checkout; only its refs go", async () => {
    const { threadId } = await projectWithThread();
    const before = git(ws, "rev-parse", "HEAD");
    await t.client.thread.delete.mutate({ threadId });
    const result = await t.client.thread.purgeDeleted.mutate({ graceMs: 0 });
    expect(result.purged).toEqual([
      { threadId, worktreePath: null, refsDeleted: expect.any(Number) },
    ]);
    expect(refsOf(threadId)).toEqual([]);
    expect(git(ws, "rev-parse", "HEAD")).toBe(before);
    expect(existsSync(path.join(ws, "f.txt"))).toBe(true);
  });

  it("a sub-agent's child thread goes with its parent; a fork of it stays", async () => {
    const { projectId, threadId } = await projectWithThread();
    // The record a sub-agent's start writes (subagent-threads.ts): lineage `subagent`.
    const child = "thr_subagent_child" as ThreadId;
    await t.orchestrator.repository.execute({
      type: "CreateThread",
      data: {
        threadId: child,
        projectId,
        title: "Sub-agent: helper",
        defaultProvider: "codex",
        parentThreadId: threadId,
      },
    });
    const { threadId: fork } = await t.client.thread.fork.mutate({
      threadId,
      isolatedWorkspace: false,
    });
    await t.client.thread.delete.mutate({ threadId });
    const deletedAt = async (id: string) =>
      (await t.client.thread.detail.query({ threadId: id })).thread.deletedAt;
    expect(await deletedAt(threadId)).not.toBe(null);
    expect(await deletedAt(child)).not.toBe(null);
    expect(await deletedAt(fork)).toBe(null);
  });

  it("an unknown thread is NOT_FOUND and changes nothing", async () => {
    const unknown = await refusal(
      t.client.thread.delete.mutate({ threadId: "thr_missing" as never }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    expect(await eventsOf("ThreadDeleted")).toHaveLength(0);
  });
});

describe("project.delete (issue 33 item 8)", () => {
  it("deletes the project and all its threads; refused as a whole while one runs", async () => {
    const { projectId, threadId } = await projectWithThread();
    const { threadId: other } = await t.client.thread.create.mutate({ projectId });
    const run = await waitingRun(threadId);

    const busy = await refusal(t.client.project.delete.mutate({ projectId }));
    expect(busy.code).toBe("CONFLICT");
    expect(busy.message).toMatch(/has a run in progress/);
    expect(await eventsOf("ThreadDeleted")).toHaveLength(0);
    expect((await t.client.project.list.query()).projects.map((p) => p.id)).toContain(projectId);

    await finish(threadId, run);
    const answer = await t.client.project.delete.mutate({ projectId, commandId: "cmd_del_p" });
    expect(answer.threadsDeleted).toBe(2);
    // The same command id answers the same, appending nothing.
    const replay = await t.client.project.delete.mutate({ projectId, commandId: "cmd_del_p" });
    expect(replay).toEqual(answer);
    expect(await eventsOf("ThreadDeleted")).toHaveLength(2);
    expect(await eventsOf("ProjectDeleted")).toHaveLength(1);
    expect((await t.client.project.list.query()).projects.map((p) => p.id)).not.toContain(
      projectId,
    );
    const shells = await t.client.thread.shells.query();
    expect(shells.threads.map((s) => s.id)).not.toContain(threadId);
    expect(shells.threads.map((s) => s.id)).not.toContain(other);
    const twice = await refusal(t.client.project.delete.mutate({ projectId }));
    expect(twice.code).toBe("PRECONDITION_FAILED");
  });
});
