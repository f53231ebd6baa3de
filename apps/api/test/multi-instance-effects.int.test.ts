import { readFileSync } from "node:fs";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import type { ScriptedProvider } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { eventually } from "./support/orchestrator-harness.ts";
import { git } from "./support/git-workspace.ts";
import type { PgInstance } from "./support/pg-instances.ts";
import { usePgPair } from "./support/pg-pair.ts";

// Issue 35 (S4, B3) on the real PostgreSQL: two API instances on one schema and one git
// workspace are each sent the same command id ten times at once. A command with outside effects
// claims its id in the store before any effect, so exactly one instance forks, fans out, rolls
// back or brings back; every call gets the same receipt, and none fails.

let codex: ScriptedProvider;
let a: PgInstance;
let b: PgInstance;
let ws: string;
usePgPair((pair) => {
  ({ a, b, codex, ws } = pair);
});

const edit = (file: string, content: string) => [
  { type: "file_change" as const, path: file, diff: "", content },
];

/** Sends `call` ten times to each instance at once; every call must answer, all alike. */
async function raced<T>(call: (on: PgInstance) => Promise<T>): Promise<T> {
  const outcomes = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => call(i % 2 === 0 ? a : b)),
  );
  const failed = outcomes.filter((o) => o.status === "rejected");
  expect(failed.map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
  const answers = outcomes.map((o) => (o as PromiseFulfilledResult<T>).value);
  for (const answer of answers) expect(answer).toEqual(answers[0]);
  return answers[0]!;
}

async function parentThread(): Promise<ThreadId> {
  const { projectId } = await a.client.project.create.mutate({ name: "fx", workspaceRoot: ws });
  const { threadId } = await a.client.thread.create.mutate({
    projectId,
    provider: "codex",
    workspace: "local",
  });
  codex.enqueue(edit("f.txt", "one\n"));
  await settled(
    threadId,
    (await a.client.thread.sendMessage.mutate({ threadId, text: "1" })).runId,
  );
  return threadId;
}

/** The run completed and its checkpoint is recorded (read through B: the log is shared). */
async function settled(threadId: string, runId: string) {
  return eventually(async () => {
    const detail = await b.client.thread.detail.query({ threadId });
    expect(detail.runs.find((run) => run.id === runId)?.status).toBe("completed");
    const checkpoint = detail.checkpoints.find((c) => c.runId === runId);
    expect(checkpoint?.status).toBe("ready");
    return checkpoint!;
  }, 30_000);
}

const threadCount = async () => (await a.store.snapshot((q) => q.list("threads"))).data.length;
const worktrees = () =>
  git(ws, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((line) => line.startsWith("worktree ")).length;
const branches = () => git(ws, "branch", "--list").trim().split("\n").length;
const eventsOf = async (type: string) =>
  (await a.store.readAll(0)).filter((event) => event.type === type);

describe("issue 35: one command id sent ten times to each of two instances [postgres]", () => {
  it("S4: an isolated fork makes one thread, one worktree and one branch; every call gets its receipt", async () => {
    const threadId = await parentThread();
    const before = { threads: await threadCount(), worktrees: worktrees(), branches: branches() };
    const answer = await raced((on) =>
      on.client.thread.fork.mutate({ threadId, isolatedWorkspace: true, commandId: "cmd_fork_x" }),
    );
    expect(answer.threadId).toMatch(/^thr_/);
    expect(await threadCount()).toBe(before.threads + 1);
    expect(worktrees()).toBe(before.worktrees + 1);
    expect(branches()).toBe(before.branches + 1);
    expect(await eventsOf("ThreadForked")).toHaveLength(1);
  });

  it("S4: a fan-out to three targets makes three forks, worktrees, branches and runs", async () => {
    const threadId = await parentThread();
    const before = { threads: await threadCount(), worktrees: worktrees(), branches: branches() };
    codex.enqueue(edit("a.txt", "a\n"), edit("b.txt", "b\n"), edit("c.txt", "c\n"));
    const answer = await raced((on) =>
      on.client.thread.fanOut.mutate({
        threadId,
        text: "go",
        targets: [{ provider: "codex" }, { provider: "codex" }, { provider: "codex" }],
        isolated: true,
        commandId: "cmd_fan_x",
      }),
    );
    expect(answer.forks).toHaveLength(3);
    for (const fork of answer.forks) {
      const detail = await b.client.thread.detail.query({ threadId: fork.threadId });
      expect(detail.runs).toHaveLength(1);
      await settled(fork.threadId, detail.runs[0]!.id);
    }
    expect(await threadCount()).toBe(before.threads + 3);
    expect(worktrees()).toBe(before.worktrees + 3);
    expect(branches()).toBe(before.branches + 3);
    expect(await eventsOf("RunQueued")).toHaveLength(1 + 3);
  });

  it("S4: a rollback restores the files once and rolls the provider thread back once", async () => {
    const threadId = await parentThread();
    const first = (await b.client.thread.detail.query({ threadId })).checkpoints[0]!;
    codex.enqueue(edit("f.txt", "two\n"));
    await settled(
      threadId,
      (await a.client.thread.sendMessage.mutate({ threadId, text: "2" })).runId,
    );
    expect(readFileSync(path.join(ws, "f.txt"), "utf8")).toBe("two\n");
    await raced((on) =>
      on.client.thread.rollback.mutate({
        threadId,
        checkpointId: first.id,
        commandId: "cmd_rollback_x",
      }),
    );
    expect(readFileSync(path.join(ws, "f.txt"), "utf8")).toBe("one\n");
    expect(await eventsOf("ThreadRolledBack")).toHaveLength(1);
    expect(codex.calls.filter((c) => c.op === "rollbackThread")).toHaveLength(1);
  });

  it("S4: a bring-back copies the fork's files once and queues one run", async () => {
    const threadId = await parentThread();
    codex.enqueue(edit("fork.txt", "from the fork\n"));
    const { forks } = await a.client.thread.fanOut.mutate({
      threadId,
      text: "make a file",
      targets: [{ provider: "codex" }],
      isolated: true,
    });
    const fork = forks[0]!.threadId;
    const forkRun = (await b.client.thread.detail.query({ threadId: fork })).runs[0]!;
    await settled(fork, forkRun.id);
    codex.enqueue([{ type: "text" as const, text: "got it" }]);
    const runsBefore = (await eventsOf("RunQueued")).length;
    const answer = await raced((on) =>
      on.client.thread.sendMessage.mutate({
        threadId,
        text: "bring it back",
        bringBackFrom: fork,
        code: "squash",
        commandId: "cmd_bring_x",
      }),
    );
    expect(readFileSync(path.join(ws, "fork.txt"), "utf8")).toBe("from the fork\n");
    expect((await eventsOf("RunQueued")).length).toBe(runsBefore + 1);
    await settled(threadId, answer.runId);
    expect(git(ws, "status", "--porcelain")).toMatch(/fork\.txt/);
  });
});
