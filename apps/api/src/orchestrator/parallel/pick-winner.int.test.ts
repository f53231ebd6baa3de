import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFile } from "@skein/scripted-provider";
import {
  ConflictError,
  MergeConflictError,
  PreconditionFailedError,
  type RunId,
} from "@skein/domain";
import { describe, expect, it } from "vitest";
import { createGitWorkspace } from "../../../test/support/git-workspace.ts";
import {
  failNextAppendOf,
  type Harness,
  runMessage,
  useHarness,
} from "../../../test/support/orchestrator-harness.ts";

const harness = useHarness();
let h: Harness;

/** What a run that already ended can still record after its waiter was answered. */
const BOOKKEEPING = new Set(["CheckpointScopeRecorded", "CheckpointRecorded"]);

async function appendedSince(head: number): Promise<string[]> {
  const events = await h.store.readAll(head);
  return events.filter((e) => !BOOKKEEPING.has(e.type)).map((e) => e.type);
}

/** A main thread in the person's folder and two isolated forks of it, each with one change. */
async function twoForks() {
  const ws = createGitWorkspace({ "shared.txt": "one\n", "README.md": "# app\n" });
  h = await harness({ workspaceRoot: ws });
  const { threadId } = await h.orchestrator.createThread({
    projectId: h.projectId,
    workspace: "local",
  });
  await runMessage(h, threadId, "get ready");
  const a = (await h.orchestrator.forkThread({ threadId, isolatedWorkspace: true })).threadId;
  const b = (await h.orchestrator.forkThread({ threadId, isolatedWorkspace: true })).threadId;
  h.codex.enqueue([writeFile("shared.txt", "from a\n"), writeFile("a.txt", "a\n")]);
  const { runId } = await h.orchestrator.sendMessage({
    threadId: a,
    text: "change shared.txt",
    effort: "high",
  });
  await h.orchestrator.waitForRun(runId);
  h.codex.enqueue([writeFile("b.txt", "b\n")]);
  await runMessage(h, b, "add b.txt");
  return { ws, threadId, a, b };
}

describe("B9 fan-out compare: checks, effort, side-by-side diffs, pick the winner", () => {
  it("B9: compare answers each fork's effort and its check result; compareDiff gives each fork's patch of one file or all", async () => {
    const { threadId, a, b } = await twoForks();
    const compared = await h.orchestrator.compareForks({
      threadIds: [a, b],
      checkCommand: "test -f a.txt && echo has-a",
    });
    const [forkA, forkB] = compared.forks;
    expect(forkA).toMatchObject({ threadId: a, effort: "high", provider: "codex" });
    expect(forkB).toMatchObject({ threadId: b, effort: null });
    expect(forkA!.check).toMatchObject({ passed: true, exitCode: 0, timedOut: false });
    expect(forkA!.check!.output).toContain("has-a");
    expect(forkB!.check).toMatchObject({ passed: false, exitCode: 1, timedOut: false });
    // Without a check command nothing runs.
    const plain = await h.orchestrator.compareForks({ threadIds: [a, b] });
    expect(plain.forks.map((f) => f.check)).toEqual([null, null]);

    const all = await h.orchestrator.compareDiff({ threadIds: [a, b] });
    const filesOf = (i: number) => all.forks[i]!.files!.map((f) => f.path).sort();
    expect(filesOf(0)).toEqual(["a.txt", "shared.txt"]);
    expect(filesOf(1)).toEqual(["b.txt"]);
    const shared = all.forks[0]!.files!.find((f) => f.path === "shared.txt")!;
    expect(shared.patch).toContain("-one");
    expect(shared.patch).toContain("+from a");
    expect(shared.truncated).toBe(false);

    const one = await h.orchestrator.compareDiff({ threadIds: [a, b], path: "shared.txt" });
    expect(one.forks.map((f) => f.files!.map((file) => file.path))).toEqual([["shared.txt"], []]);
    // A thread that is no fork is refused by name.
    await expect(h.orchestrator.compareDiff({ threadIds: [threadId] })).rejects.toThrow(
      /is not a fork/,
    );
  });

  it("B9: a fan-out target's effort reaches its fork's run, and compare answers it", async () => {
    h = await harness({ workspaceRoot: createGitWorkspace({ "README.md": "# app\n" }) });
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      workspace: "local",
    });
    await runMessage(h, threadId, "get ready");
    const { forks } = await h.orchestrator.fanOut({
      threadId,
      text: "think hard",
      targets: [{ provider: "codex", effort: "high" }],
      isolated: true,
    });
    const forkId = forks[0]!.threadId;
    const state = await h.thread(forkId);
    await h.orchestrator.waitForRun(state.runOrder.at(-1)!);
    expect((await h.thread(forkId)).runs.get(state.runOrder.at(-1)!)?.effort).toBe("high");
    const compared = await h.orchestrator.compareForks({ threadIds: [forkId] });
    expect(compared.forks[0]).toMatchObject({ effort: "high", status: "completed" });
  });

  it("B9: pick the winner brings it back (files + conversation) and archives the rest in one command; a retry under its id changes nothing", async () => {
    const { ws, threadId, a, b } = await twoForks();
    const input = {
      threadId,
      winnerThreadId: b,
      others: [a],
      text: "I picked b",
      commandId: "cmd_pick",
    };
    const picked = await h.orchestrator.pickWinner(input);
    expect(picked.archived).toEqual([a]);
    expect(picked.code?.files.map((f) => f.path)).toEqual(["b.txt"]);
    await h.orchestrator.waitForRun(picked.runId);
    expect(readFileSync(path.join(ws, "b.txt"), "utf8")).toBe("b\n");
    expect(existsSync(path.join(ws, "a.txt"))).toBe(false);
    expect((await h.thread(a)).thread?.archivedAt).not.toBeNull();
    expect((await h.thread(b)).thread?.archivedAt).toBeNull();
    const main = await h.thread(threadId);
    expect(main.runs.get(picked.runId)?.status).toBe("completed");

    const head = await h.store.headSequence();
    const again = await h.orchestrator.pickWinner(input);
    expect(again).toMatchObject({ runId: picked.runId, archived: [a] });
    expect(await h.store.headSequence()).toBe(head);
    expect((await h.thread(threadId)).runs.size).toBe(main.runs.size);
  });

  it("B9/B14: a pick whose bring-back clashes is refused with nothing changed: no run, no archive, the file untouched", async () => {
    const { ws, threadId, a, b } = await twoForks();
    // The person's thread changes shared.txt after the forks were made: fork a clashes with it.
    h.codex.enqueue([writeFile("shared.txt", "main\n")]);
    await runMessage(h, threadId, "change shared.txt here");
    const before = await h.thread(threadId);
    const head = await h.store.headSequence();

    await expect(
      h.orchestrator.pickWinner({ threadId, winnerThreadId: a, others: [b], text: "pick a" }),
    ).rejects.toBeInstanceOf(MergeConflictError);
    expect(readFileSync(path.join(ws, "shared.txt"), "utf8")).toBe("main\n");
    expect((await h.thread(b)).thread?.archivedAt).toBeNull();
    expect((await h.thread(threadId)).runs.size).toBe(before.runs.size);
    expect(await h.store.headSequence()).toBe(head);

    // A thread that is not a fork of this one refuses the pick before anything happens.
    await expect(
      h.orchestrator.pickWinner({ threadId, winnerThreadId: b, others: [threadId], text: "x" }),
    ).rejects.toBeInstanceOf(PreconditionFailedError);
    await expect(
      h.orchestrator.pickWinner({ threadId, winnerThreadId: b, others: [b], text: "x" }),
    ).rejects.toThrow(/winner/);
    expect(await h.store.headSequence()).toBe(head);
    expect(existsSync(path.join(ws, "b.txt"))).toBe(false);
  });

  it("B3: a pick's command id is bound to its input: the same input replays its own receipt; other others, text or winner is CONFLICT and appends nothing", async () => {
    const { threadId, a, b } = await twoForks();
    const input = {
      threadId,
      winnerThreadId: b,
      others: [a],
      text: "I picked b",
      commandId: "cmd_bound",
    };
    const picked = await h.orchestrator.pickWinner(input);
    await h.orchestrator.waitForRun(picked.runId);
    expect(await h.store.findReceipt("cmd_bound")).toMatchObject({
      procedure: "thread.pickWinner",
      lastSequence: picked.sequence,
      receipt: { runId: picked.runId, archived: [a] },
    });
    expect(await h.store.findIntent("cmd_bound")).toBeNull();

    const head = await h.store.headSequence();
    expect(await h.orchestrator.pickWinner(input)).toEqual(picked);
    const others = [
      { ...input, others: [] },
      { ...input, text: "I picked b, really" },
      { ...input, winnerThreadId: a, others: [b] },
    ];
    for (const other of others) {
      const refused = h.orchestrator.pickWinner(other);
      await expect(refused).rejects.toBeInstanceOf(ConflictError);
      await expect(refused).rejects.toThrow(
        /cmd_bound was already used by thread\.pickWinner with a different payload/,
      );
    }
    // Another procedure under the id is refused too, naming the pick.
    await expect(h.orchestrator.archive({ threadId: b, commandId: "cmd_bound" })).rejects.toThrow(
      /already used by thread\.pickWinner/,
    );
    expect(await appendedSince(head)).toEqual([]);
    expect((await h.thread(b)).thread?.archivedAt).toBeNull();
  });

  it("B3: a pick that failed mid-way keeps its id bound (other input is CONFLICT) and is finished after a restart; a retry then replays it", async () => {
    const { threadId, a, b } = await twoForks();
    const input = {
      threadId,
      winnerThreadId: b,
      others: [a],
      text: "I picked b",
      commandId: "cmd_midway",
    };
    failNextAppendOf(h, "ThreadArchived");
    await expect(h.orchestrator.pickWinner(input)).rejects.toThrow(/simulated crash/);
    expect(await h.store.findReceipt("cmd_midway")).toBeNull();
    expect(await h.store.findIntent("cmd_midway")).toMatchObject({
      procedure: "thread.pickWinner",
    });
    const brought = await h.store.findReceipt("cmd_midway.bring");
    expect(brought).not.toBeNull();
    const runId = (brought!.receipt as { runId: RunId }).runId;
    await h.orchestrator.waitForRun(runId);
    expect((await h.thread(a)).thread?.archivedAt).toBeNull();

    const head = await h.store.headSequence();
    await expect(h.orchestrator.pickWinner({ ...input, others: [] })).rejects.toBeInstanceOf(
      ConflictError,
    );
    expect(await appendedSince(head)).toEqual([]);
    expect(await h.store.findIntent("cmd_midway")).not.toBeNull();

    await h.orchestrator.shutdown();
    const restarted = await h.restart();
    await restarted.recover();
    expect(await h.store.findIntent("cmd_midway")).toBeNull();
    expect((await h.thread(a)).thread?.archivedAt).not.toBeNull();
    const stored = await h.store.findReceipt("cmd_midway");
    expect(stored).toMatchObject({ receipt: { runId, archived: [a] } });

    const settled = await h.store.headSequence();
    expect(await restarted.pickWinner(input)).toEqual({
      runId,
      code: expect.anything(),
      archived: [a],
      sequence: stored!.lastSequence,
    });
    expect(await appendedSince(settled)).toEqual([]);
    expect((await h.thread(threadId)).runs.get(runId)).toBeDefined();
  });
});
