import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { createGitWorkspace } from "./support/git-workspace.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;
beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

type Id = never;

async function settled(threadId: string, runId: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const detail = await t.client.thread.detail.query({ threadId: threadId as Id });
    const run = detail.runs.find((r) => r.id === runId);
    // Ended and its checkpoint recorded (appended just after the run ends): nothing more comes.
    const ended = run && ["completed", "failed", "interrupted"].includes(run.status);
    if (ended && detail.checkpoints.some((c) => c.runId === runId)) return { run, detail };
    if (Date.now() > deadline) throw new Error(`run ${runId} did not end: ${run?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function send(threadId: string, input: Record<string, unknown>) {
  const { runId } = await t.client.thread.sendMessage.mutate({
    threadId: threadId as Id,
    ...(input as { text: string }),
  });
  return settled(threadId, runId);
}

async function mainThread() {
  const { projectId } = await t.client.project.create.mutate({
    name: "Drafts",
    workspaceRoot: createGitWorkspace({ "a.txt": "a\n" }),
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId, provider: "codex" });
  await send(threadId, { text: "first on codex" });
  return threadId;
}

describe("handoff.draft and sendMessage's reviewed handoff (issue 17)", () => {
  it("previews a provider switch; the edited text is exactly what the switched run sends", async () => {
    const threadId = await mainThread();
    expect(
      await t.client.handoff.draft.query({ threadId: threadId as Id, provider: "codex" }),
    ).toEqual({ needed: false });
    const draft = await t.client.handoff.draft.query({
      threadId: threadId as Id,
      provider: "claude",
    });
    expect(draft).toMatchObject({ needed: true, transferType: "provider_handoff" });
    if (!draft.needed) throw new Error("unreachable");
    expect(draft.text).toContain("first on codex");
    const before = (await t.client.thread.detail.query({ threadId: threadId as Id })).transfers;
    expect(before).toEqual([]); // a draft records nothing

    const edited = `${draft.text}\n\nReviewer note: keep the tests green.`;
    const { run, detail } = await send(threadId, {
      text: "now on claude",
      provider: "claude",
      handoffText: edited,
    });
    expect(run.status).toBe("completed");
    expect(detail.transfers).toHaveLength(1);
    const view = await t.client.transfer.get.query({ transferId: detail.transfers[0]!.id });
    expect(view.transfer).toMatchObject({ type: "provider_handoff", consumedByRunId: run.id });
    expect(view.handoff).toMatchObject({ strategy: "manual_context", summaryText: edited });
    expect(run.contextHandoffId).toBe(view.handoff?.id);
  });

  it("previews a bring-back; the edited text is what the merge-back run sends", async () => {
    const threadId = await mainThread();
    const { threadId: forkId } = await t.client.thread.fork.mutate({
      threadId: threadId as Id,
      isolatedWorkspace: false,
    });
    await send(forkId, { text: "work on the fork" });
    const draft = await t.client.handoff.draft.query({
      threadId: threadId as Id,
      provider: "codex",
      bringBackFrom: forkId,
    });
    expect(draft).toMatchObject({ needed: true, transferType: "merge_back" });
    if (!draft.needed) throw new Error("unreachable");
    expect(draft.text).toContain("work on the fork");

    const { run, detail } = await send(threadId, {
      text: "bring it back",
      provider: "codex",
      bringBackFrom: forkId,
      handoffText: "Only the fork's test changes matter.",
    });
    const merge = detail.transfers.find((tr) => tr.type === "merge_back")!;
    const view = await t.client.transfer.get.query({ transferId: merge.id });
    expect(view.transfer.consumedByRunId).toBe(run.id);
    expect(view.handoff).toMatchObject({
      strategy: "manual_context",
      summaryText: "Only the fork's test changes matter.",
    });
  });

  it("refuses what cannot be drafted with typed errors and appends nothing", async () => {
    const threadId = await mainThread();
    const { threadId: other } = await t.client.thread.create.mutate({
      projectId: (await t.client.project.list.query()).projects[0]!.id,
    });
    const head = await t.store.headSequence();
    const notAFork = await refusal(
      t.client.handoff.draft.query({
        threadId: threadId as Id,
        provider: "codex",
        bringBackFrom: other,
      }),
    );
    expect(notAFork.code).toBe("PRECONDITION_FAILED");
    expect(notAFork.message).toMatch(/not a fork/);
    const unknown = await refusal(
      t.client.handoff.draft.query({ threadId: "thr_nope" as Id, provider: "claude" }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    const badProvider = await refusal(
      t.client.handoff.draft.query({ threadId: threadId as Id, provider: "Not an id" as Id }),
    );
    expect(badProvider.code).toBe("BAD_REQUEST");
    expect(await t.store.headSequence()).toBe(head);
  });
});
