import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { openSqliteEventStore } from "@skein/db";
import { createScriptedProvider, writeFile } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { DEFAULT_WORKTREE_GRACE_MS } from "../src/orchestrator/parallel/worktree-hygiene.ts";
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

/** A Codex thread in a fresh git repository whose first run has completed (a stable point). */
async function parentThread(files: Record<string, string> = { "shared.txt": "one\n" }) {
  const ws = createGitWorkspace(files);
  const { projectId } = await t.client.project.create.mutate({ name: "fan", workspaceRoot: ws });
  const { threadId } = await t.client.thread.create.mutate({
    projectId,
    provider: "codex",
    // The person's main thread, in their folder: bring-back lands there (forks get worktrees).
    workspace: "local",
  });
  t.codex.enqueue(say("ready"));
  await runToCheckpoint(threadId, "get ready");
  return { ws, threadId };
}

async function runToCheckpoint(threadId: ThreadId, text: string) {
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await settled(threadId, runId);
  return runId;
}

async function settled(threadId: ThreadId, runId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const detail = await t.client.thread.detail.query({ threadId });
    if (detail.checkpoints.some((c) => c.runId === runId)) return;
    if (Date.now() > deadline) throw new Error(`run ${runId} got no checkpoint`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Fans out to one Codex and one Claude fork, each scripted with its own edits, and waits. */
async function fanOutTwo(threadId: ThreadId, codexEdits: object[], claudeEdits: object[]) {
  t.codex.enqueue(codexEdits as never);
  t.claude.enqueue(claudeEdits as never);
  const { forks } = await t.client.thread.fanOut.mutate({
    threadId,
    text: "go",
    targets: [{ provider: "codex" }, { provider: "claude" }],
    isolated: true,
  });
  for (const fork of forks) {
    const detail = await t.client.thread.detail.query({ threadId: fork.threadId });
    await settled(fork.threadId, detail.runs.at(-1)!.id);
  }
  return forks.map((f) => f.threadId) as [ThreadId, ThreadId];
}

async function until(check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Several 1–2 s git steps per test; the bound is generous for a busy machine.
const SLOW = 120_000;

describe("thread.fanOut, compare, bring-back with code and worktree hygiene over HTTP", () => {
  it(
    "refuses bad fan-outs as typed errors and records nothing",
    async () => {
      const { ws, threadId } = await parentThread();
      const before = await t.client.thread.shells.query({});
      const ask = (targets: unknown, isolated: unknown = true) =>
        refusal(
          t.client.thread.fanOut.mutate({ threadId, text: "go", targets, isolated } as never),
        );
      for (const targets of [
        [],
        Array.from({ length: 9 }, () => ({ provider: "codex" })),
        [{ provider: "Not an id" }],
      ]) {
        expect((await ask(targets)).code).toBe("BAD_REQUEST");
      }
      expect((await ask([{ provider: "codex" }], false)).code).toBe("BAD_REQUEST");
      // A plain folder cannot hold isolated worktrees: refused before any fork is recorded.
      const plain = mkdtempSync(path.join(tmpdir(), "skein-plain-"));
      const { projectId } = await t.client.project.create.mutate({
        name: "p",
        workspaceRoot: plain,
      });
      const { threadId: other } = await t.client.thread.create.mutate({ projectId });
      t.codex.enqueue(say("ok"));
      await runToCheckpoint(other, "hi");
      const noRepo = await refusal(
        t.client.thread.fanOut.mutate({
          threadId: other,
          text: "go",
          targets: [{ provider: "codex" }],
          isolated: true,
        }),
      );
      expect(noRepo.code).toBe("PRECONDITION_FAILED");
      const after = await t.client.thread.shells.query({});
      expect(after.threads.length).toBe(before.threads.length + 1);
      expect(existsSync(path.join(t.dataDir, "worktrees"))).toBe(false);
      expect(git(ws, "worktree", "list").trim().split("\n")).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "B3: a fan-out's command id is bound to its input: the same input replays its forks from its own receipt; fewer targets or other text is CONFLICT and appends nothing",
    async () => {
      const { threadId } = await parentThread();
      t.codex.enqueue(say("codex went"));
      t.claude.enqueue(say("claude went"));
      const input = {
        threadId,
        text: "go",
        targets: [{ provider: "codex" as const }, { provider: "claude" as const }],
        isolated: true as const,
        commandId: "cmd_fan_bound",
      };
      const fanned = await t.client.thread.fanOut.mutate(input);
      for (const fork of fanned.forks) {
        const detail = await t.client.thread.detail.query({ threadId: fork.threadId });
        await settled(fork.threadId, detail.runs.at(-1)!.id);
      }
      expect(await t.store.findReceipt("cmd_fan_bound")).toMatchObject({
        procedure: "thread.fanOut",
        lastSequence: fanned.sequence,
        receipt: { forks: fanned.forks },
      });
      expect(await t.store.findIntent("cmd_fan_bound")).toBeNull();

      const head = await t.store.headSequence();
      const shells = (await t.client.thread.shells.query({})).threads.length;
      expect(await t.client.thread.fanOut.mutate(input)).toEqual(fanned);
      for (const other of [
        { ...input, targets: [{ provider: "codex" as const }] },
        { ...input, text: "go, differently" },
      ]) {
        const refused = await refusal(t.client.thread.fanOut.mutate(other));
        expect(refused).toMatchObject({ code: "CONFLICT", httpStatus: 409 });
        expect(refused.message).toMatch(
          /cmd_fan_bound was already used by thread\.fanOut with a different payload/,
        );
      }
      expect(
        (await t.store.readAll(head))
          .filter((e) => !["CheckpointScopeRecorded", "CheckpointRecorded"].includes(e.type))
          .map((e) => e.type),
      ).toEqual([]);
      expect((await t.client.thread.shells.query({})).threads.length).toBe(shells);
    },
    SLOW,
  );

  it(
    "compare lists each fork's files and the overlap, the overlap watch follows worktree edits; a clashing bring-back is CONFLICT with the files in data.issues",
    async () => {
      const { ws, threadId } = await parentThread();
      const [codexFork, claudeFork] = await fanOutTwo(
        threadId,
        [writeFile("shared.txt", "codex\n"), writeFile("codex.txt", "c\n")],
        [writeFile("shared.txt", "claude\n")],
      );
      const compared = await t.client.thread.compare.query({ threadIds: [codexFork, claudeFork] });
      expect(compared.forks.map((f) => f.files?.map((c) => c.path).sort())).toEqual([
        ["codex.txt", "shared.txt"],
        ["shared.txt"],
      ]);
      expect(compared.forks.map((f) => f.provider)).toEqual(["codex", "claude"]);
      expect(compared.overlaps).toEqual([
        { path: "shared.txt", threadIds: [codexFork, claudeFork] },
      ]);

      // The overlap watch: sent at once, then again when a worktree changes.
      const seen: Array<{ overlaps: Array<{ path: string }> }> = [];
      const sub = t.client.thread.watchOverlaps.subscribe(
        { threadIds: [codexFork, claudeFork], intervalMs: 250 },
        {
          onData: (view) => seen.push(view),
          onError: (error) => seen.push({ overlaps: [{ path: String(error) }] }),
        },
      );
      try {
        await until(() => seen.length >= 1);
        expect(seen[0]!.overlaps.map((o) => o.path)).toEqual(["shared.txt"]);
        const claudeTree = compared.forks[1]!.worktreePath!;
        writeFileSync(path.join(claudeTree, "codex.txt"), "claude too\n");
        await until(() => seen.length >= 2);
        expect(seen[1]!.overlaps.map((o) => o.path)).toEqual(["codex.txt", "shared.txt"]);
      } finally {
        sub.unsubscribe();
      }
      rmSync(path.join(compared.forks[1]!.worktreePath!, "codex.txt"));

      t.codex.enqueue(say("took codex"));
      const back = await t.client.thread.sendMessage.mutate({
        threadId,
        text: "bring codex back",
        bringBackFrom: codexFork,
        code: "squash",
      });
      expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("codex\n");
      await settled(threadId, back.runId);
      const before = hashTree(ws);
      const clash = await refusal(
        t.client.thread.sendMessage.mutate({
          threadId,
          text: "bring claude back",
          bringBackFrom: claudeFork,
          code: "squash",
        }),
      );
      expect(clash).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
      expect(clash.issues).toEqual([{ path: "shared.txt", message: "changed on both sides" }]);
      expect(hashTree(ws)).toEqual(before);
    },
    SLOW,
  );

  it(
    'code "merge" over HTTP: refused as PRECONDITION_FAILED (use squash) in a dirty checkout, then merged on the branch once it is clean',
    async () => {
      const { ws, threadId } = await parentThread();
      const [codexFork] = await fanOutTwo(
        threadId,
        [writeFile("codex.txt", "c\n")],
        [say("nothing")],
      );
      const head = git(ws, "rev-parse", "HEAD").trim();
      writeFileSync(path.join(ws, "notes.txt"), "mine\n");
      const merge = () =>
        t.client.thread.sendMessage.mutate({
          threadId,
          text: "bring it back",
          bringBackFrom: codexFork,
          code: "merge",
        });
      const dirty = await refusal(merge());
      expect(dirty.code).toBe("PRECONDITION_FAILED");
      expect(dirty.message).toMatch(/uncommitted changes.*use code "squash"/);
      expect(existsSync(path.join(ws, "codex.txt"))).toBe(false);
      rmSync(path.join(ws, "notes.txt"));
      t.codex.enqueue(say("took it"));
      const back = await merge();
      expect(back.code?.mode).toBe("merge");
      expect(git(ws, "rev-parse", "HEAD^1").trim()).toBe(head);
      expect(readFileSync(path.join(ws, "codex.txt"), "utf8")).toBe("c\n");
      await settled(threadId, back.runId);
    },
    SLOW,
  );

  it(
    "hygiene removes merged, archived and orphaned fork worktrees, keeps live ones and uncaptured work unless forced, deletes no checkpoint",
    async () => {
      const { ws, threadId } = await parentThread();
      const [merged, archived] = await fanOutTwo(
        threadId,
        [writeFile("codex.txt", "c\n")],
        [writeFile("claude.txt", "b\n")],
      );
      const worktreeOf = async (id: ThreadId) =>
        (await t.client.thread.detail.query({ threadId: id })).thread.worktreePath!;
      const mergedPath = await worktreeOf(merged);
      const archivedPath = await worktreeOf(archived);
      t.codex.enqueue(say("took it"));
      const back = await t.client.thread.sendMessage.mutate({
        threadId,
        text: "bring it back",
        bringBackFrom: merged,
        code: "squash",
      });
      await settled(threadId, back.runId);
      // A worktree the person made elsewhere, and an orphan in Skein's folder nothing records.
      const mine = path.join(mkdtempSync(path.join(tmpdir(), "skein-mine-")), "wt");
      git(ws, "worktree", "add", "-q", "-b", "mine", mine);
      const orphan = path.join(t.dataDir, "worktrees", "thr_orphan");
      git(ws, "worktree", "add", "-q", "-b", "skein/thr_orphan", orphan);

      // Within the grace period nothing goes.
      const early = await t.client.thread.sweepWorktrees.mutate({});
      expect(early.removed).toEqual([]);

      const first = await t.client.thread.sweepWorktrees.mutate({ graceMs: 0 });
      expect(first.removed.map((r) => [r.threadId, r.reason, r.branchDeleted]).sort()).toEqual(
        [
          [merged, "merged", true],
          ["thr_orphan", "orphan", false],
        ].sort(),
      );
      expect(first.kept).toEqual([{ path: archivedPath, threadId: archived, reason: "live fork" }]);
      expect(existsSync(mergedPath)).toBe(false);
      expect(existsSync(orphan)).toBe(false);
      expect(existsSync(mine)).toBe(true);

      await t.client.thread.archive.mutate({ threadId: archived });
      writeFileSync(path.join(archivedPath, "late.txt"), "not captured\n");
      const kept = await t.client.thread.sweepWorktrees.mutate({ graceMs: 0 });
      expect(kept.removed).toEqual([]);
      expect(kept.kept[0]?.reason).toMatch(/no checkpoint captured/);
      const forced = await t.client.thread.sweepWorktrees.mutate({ graceMs: 0, force: true });
      expect(forced.removed).toMatchObject([{ threadId: archived, reason: "archived" }]);
      expect(existsSync(archivedPath)).toBe(false);

      // The forks' branches went with them; an orphan's is kept (nothing says where it began).
      expect(git(ws, "branch", "--list", "skein/*").trim()).toBe("skein/thr_orphan");
      expect(git(ws, "for-each-ref", "--format=%(refname)", "refs/heads/mine").trim()).toBe(
        "refs/heads/mine",
      );
      // The forks' checkpoints stay restorable from their hidden refs.
      for (const id of [merged, archived]) {
        expect(git(ws, "for-each-ref", `refs/skein/checkpoints/${id}/`).trim()).not.toBe("");
      }
      const after = await t.client.thread.compare.query({ threadIds: [merged] });
      expect(after.forks[0]?.files).toBeNull();
    },
    SLOW,
  );

  it(
    "the startup sweep removes an orphan worktree in Skein's folder once past the grace period",
    async () => {
      const ws = createGitWorkspace({ "a.txt": "a\n" });
      const dataDir = mkdtempSync(path.join(tmpdir(), "skein-sweep-"));
      const store = openSqliteEventStore({ dataDir });
      const codex = createScriptedProvider({ provider: "codex" });
      const start = (worktreeGraceMs: number) =>
        createOrchestrator({
          store,
          adapters: { codex },
          dataDir,
          sessionIdleMs: 0,
          worktreeGraceMs,
        });
      const first = await start(DEFAULT_WORKTREE_GRACE_MS);
      await first.createProject({ name: "p", workspaceRoot: ws });
      // What a fork that died between `git worktree add` and recording it leaves behind.
      const orphan = path.join(dataDir, "worktrees", "thr_dead");
      git(ws, "worktree", "add", "-q", "-b", "skein/thr_dead", orphan);
      await first.recover();
      expect(existsSync(orphan)).toBe(true);
      await first.shutdown();

      const second = await start(0);
      try {
        await second.recover();
        expect(existsSync(orphan)).toBe(false);
        expect(git(ws, "worktree", "list").trim().split("\n")).toHaveLength(1);
      } finally {
        await second.shutdown();
        await store.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    SLOW,
  );

  it("issue 35: watchOverlaps on a thread that is not a fork is PRECONDITION_FAILED (412), as thread.compare is", async () => {
    const { threadId } = await parentThread();
    const compared = await refusal(t.client.thread.compare.query({ threadIds: [threadId] }));
    expect(compared).toMatchObject({ code: "PRECONDITION_FAILED", httpStatus: 412 });
    const failure = await new Promise<unknown>((resolve) => {
      const sub = t.client.thread.watchOverlaps.subscribe(
        { threadIds: [threadId] },
        {
          onData: () => resolve(new Error("a view was sent for a thread that is not a fork")),
          onError: (error) => {
            sub.unsubscribe();
            resolve(error);
          },
        },
      );
    });
    const watched = await refusal(Promise.reject(failure));
    expect(watched).toMatchObject({ code: "PRECONDITION_FAILED", httpStatus: 412 });
    expect(watched.message).toMatch(/is not a fork/);
  });
});
