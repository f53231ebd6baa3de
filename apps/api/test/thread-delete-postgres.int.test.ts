import { existsSync } from "node:fs";
import type { ScriptedProvider } from "@skein/scripted-provider";
import { describe, expect, it } from "vitest";
import { eventually } from "./support/orchestrator-harness.ts";
import { git } from "./support/git-workspace.ts";
import type { PgInstance } from "./support/pg-instances.ts";
import { usePgPair } from "./support/pg-pair.ts";

// Issue 33 item 8 on the real PostgreSQL: two instances on one schema and one git workspace
// purge the same deleted fork at once, ten times each. The purge runs under an effect claim, so
// one instance removes the worktree and refs and one `ThreadPurged` is appended; none fails.

let codex: ScriptedProvider;
let a: PgInstance;
let b: PgInstance;
let ws: string;
usePgPair((pair) => {
  ({ a, b, codex, ws } = pair);
});

async function settledRun(threadId: string, file: string) {
  codex.enqueue([{ type: "file_change", path: file, diff: "", content: `${file}\n` }]);
  const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: file });
  await eventually(async () => {
    const detail = await b.client.thread.detail.query({ threadId });
    expect(detail.checkpoints.find((c) => c.runId === runId)?.status).toBe("ready");
  }, 30_000);
}

describe("issue 33: a deleted thread purged by two instances at once [postgres]", () => {
  it("removes the worktree and refs once and appends one ThreadPurged", async () => {
    const { projectId } = await a.client.project.create.mutate({ name: "p", workspaceRoot: ws });
    const { threadId } = await a.client.thread.create.mutate({ projectId, provider: "codex" });
    await settledRun(threadId, "f.txt");
    const { threadId: fork } = await a.client.thread.fork.mutate({
      threadId,
      isolatedWorkspace: true,
    });
    await settledRun(fork, "g.txt");
    const listed = () => git(ws, "worktree", "list", "--porcelain");
    const worktree = listed()
      .split("\n")
      .find((line) => line.startsWith("worktree ") && line.endsWith(fork))!
      .slice("worktree ".length);
    await b.client.thread.delete.mutate({ threadId: fork });

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).client.thread.purgeDeleted.mutate({ graceMs: 0 }),
      ),
    );
    const purged = outcomes.flatMap((o) => o.purged);
    expect(purged.map((p) => p.threadId)).toEqual([fork]);
    expect(outcomes.flatMap((o) => o.kept)).toEqual([]);
    const events = (await a.store.readAll(0)).filter((e) => e.type === "ThreadPurged");
    expect(events).toHaveLength(1);
    expect(existsSync(worktree)).toBe(false);
    expect(listed()).not.toContain(fork);
    expect(git(ws, "for-each-ref", `refs/skein/checkpoints/${fork}/`).trim()).toBe("");
    expect(git(ws, "for-each-ref", `refs/skein/checkpoints/${threadId}/`).trim()).not.toBe("");
  });
});
