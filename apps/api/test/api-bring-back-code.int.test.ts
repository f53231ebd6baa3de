import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { writeFile } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { createGitWorkspace, git, hashTree } from "./support/git-workspace.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

const say = (text: string) => [{ type: "text" as const, text }];

async function settled(threadId: ThreadId, runId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const detail = await t.client.thread.detail.query({ threadId });
    if (detail.checkpoints.some((c) => c.runId === runId)) return;
    if (Date.now() > deadline) throw new Error(`run ${runId} got no checkpoint`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function run(threadId: ThreadId, text: string, script: object[]) {
  t.codex.enqueue(script as never);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await settled(threadId, runId);
}

/**
 * The person's thread in their folder (a git repository), one settled run, and a fork in its own
 * worktree whose run changed `shared.txt` and added `fork.txt`.
 */
async function threadWithFork() {
  const ws = createGitWorkspace({ "shared.txt": "one\n", "other.txt": "o\n" });
  const { projectId } = await t.client.project.create.mutate({ name: "b", workspaceRoot: ws });
  const { threadId } = await t.client.thread.create.mutate({
    projectId,
    provider: "codex",
    workspace: "local",
  });
  await run(threadId, "get ready", say("ready"));
  const fork = await t.client.thread.fork.mutate({ threadId, isolatedWorkspace: true });
  const forkId = fork.threadId;
  await run(forkId, "change it", [writeFile("shared.txt", "fork\n"), writeFile("fork.txt", "f\n")]);
  return { ws, threadId, forkId };
}

const SLOW = 120_000;

describe("issue 26: bring back a fork's code only (thread.bringBackCode) over HTTP, real git", () => {
  it(
    "B14: the fork's files land in the workspace with no message, run or handoff, the person's own edits stay, the thread shows it, and rolling back to its undo checkpoint takes it out again",
    async () => {
      const { ws, threadId, forkId } = await threadWithFork();
      // The person's own uncommitted edit in a file the fork did not touch.
      writeFileSync(path.join(ws, "other.txt"), "mine\n");
      const before = await t.client.thread.detail.query({ threadId });

      const back = await t.client.thread.bringBackCode.mutate({ threadId, forkThreadId: forkId });
      expect(back.mode).toBe("squash");
      expect(back.files.map((f) => [f.path, f.status]).sort()).toEqual([
        ["fork.txt", "added"],
        ["shared.txt", "modified"],
      ]);
      expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("fork\n");
      expect(readFileSync(path.join(ws, "fork.txt"), "utf8")).toBe("f\n");
      expect(readFileSync(path.join(ws, "other.txt"), "utf8")).toBe("mine\n");
      // Nothing committed: the files are uncommitted changes, as with "squash".
      expect(git(ws, "log", "--oneline").trim().split("\n")).toHaveLength(1);

      const after = await t.client.thread.detail.query({ threadId });
      expect(after.runs.length).toBe(before.runs.length);
      expect(after.transfers.length).toBe(before.transfers.length);
      expect(after.turnItems.filter((i) => i.type === "user_message").length).toBe(
        before.turnItems.filter((i) => i.type === "user_message").length,
      );
      const item = after.turnItems.at(-1)!;
      expect(item).toMatchObject({
        type: "git",
        action: "code_brought_back",
        runId: null,
        ref: back.undoCheckpointId,
      });
      expect(item.type === "git" && item.title).toMatch(
        /^Brought back the code of ".+" \(2 files, no conversation\)$/,
      );
      expect(after.checkpoints.some((c) => c.id === back.undoCheckpointId)).toBe(true);

      await t.client.thread.rollback.mutate({ threadId, checkpointId: back.undoCheckpointId });
      expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("one\n");
      expect(existsSync(path.join(ws, "fork.txt"))).toBe(false);
      expect(readFileSync(path.join(ws, "other.txt"), "utf8")).toBe("mine\n");
    },
    SLOW,
  );

  it(
    "B9: a clash with the person's edit is refused as CONFLICT naming the path, and nothing changes (files, log, thread)",
    async () => {
      const { ws, threadId, forkId } = await threadWithFork();
      writeFileSync(path.join(ws, "shared.txt"), "the person's line\n");
      const files = hashTree(ws);
      const head = await t.client.thread.detail.query({ threadId });

      const clash = await refusal(
        t.client.thread.bringBackCode.mutate({ threadId, forkThreadId: forkId }),
      );
      expect(clash).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
      expect(clash.message).toContain("shared.txt");
      expect(clash.issues).toEqual([{ path: "shared.txt", message: "changed on both sides" }]);
      expect(hashTree(ws)).toEqual(files);
      const after = await t.client.thread.detail.query({ threadId });
      expect(after.turnItems.length).toBe(head.turnItems.length);
      expect(after.checkpoints.length).toBe(head.checkpoints.length);
    },
    SLOW,
  );

  it(
    "B3: one commandId sent twice at once and once more brings the code once, with one answer",
    async () => {
      const { ws, threadId, forkId } = await threadWithFork();
      const input = { threadId, forkThreadId: forkId, commandId: "cmd_code_only_1" };
      const [first, second] = await Promise.all([
        t.client.thread.bringBackCode.mutate(input),
        t.client.thread.bringBackCode.mutate(input),
      ]);
      const third = await t.client.thread.bringBackCode.mutate(input);
      expect(second).toEqual(first);
      expect(third).toEqual(first);
      const detail = await t.client.thread.detail.query({ threadId });
      const items = detail.turnItems.filter((i) => i.type === "git");
      expect(items).toHaveLength(1);
      expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("fork\n");
      // A second bring-back under a new id finds the code here already: refused in words.
      const again = await refusal(
        t.client.thread.bringBackCode.mutate({ threadId, forkThreadId: forkId }),
      );
      expect(again.code).toBe("PRECONDITION_FAILED");
      expect(again.message).toContain("nothing to bring back");
    },
    SLOW,
  );

  it(
    "bad input is a typed BAD_REQUEST (a scope it does not take, a malformed fork id); a thread that is not a fork is PRECONDITION_FAILED; nothing changes",
    async () => {
      const { ws, threadId, forkId } = await threadWithFork();
      const files = hashTree(ws);
      const bad = [
        { threadId, forkThreadId: forkId, scope: "conversation" },
        { threadId, forkThreadId: "not a thread id" },
        { threadId },
      ];
      for (const input of bad) {
        const refused = await refusal(t.client.thread.bringBackCode.mutate(input as never));
        expect(refused.code, JSON.stringify(input)).toBe("BAD_REQUEST");
      }
      const notFork = await refusal(
        t.client.thread.bringBackCode.mutate({ threadId: forkId, forkThreadId: threadId }),
      );
      expect(notFork.code).toBe("PRECONDITION_FAILED");
      expect(notFork.message).toContain("is not a fork of");
      expect(hashTree(ws)).toEqual(files);
      const detail = await t.client.thread.detail.query({ threadId });
      expect(detail.turnItems.some((i) => i.type === "git")).toBe(false);
    },
    SLOW,
  );
});
