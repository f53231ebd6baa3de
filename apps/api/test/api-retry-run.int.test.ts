import type { RunId, ThreadId } from "@skein/domain";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal } from "./support/errors.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

let t: ScriptedTestServer;

beforeEach(async () => {
  t = await startScriptedServer();
});
afterEach(async () => {
  await t.close();
});

async function seedThread(): Promise<ThreadId> {
  const { projectId } = await t.client.project.create.mutate({
    name: "Demo",
    workspaceRoot: t.workspaceDir,
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId, title: "Main" });
  return threadId;
}

async function settled(threadId: ThreadId, runId: RunId, status: string) {
  return eventually(async () => {
    const { runs } = await t.client.thread.detail.query({ threadId });
    const run = runs.find((r) => r.id === runId);
    expect(run?.status).toBe(status);
    return run!;
  });
}

/** A run's workspace checkpoint is appended just after it ends; wait for it before counting. */
async function checkpointed(threadId: ThreadId, runId: RunId) {
  await eventually(async () => {
    const { checkpoints } = await t.client.thread.detail.query({ threadId });
    expect(checkpoints.some((c) => c.runId === runId)).toBe(true);
  });
}

async function failedRun(threadId: ThreadId, text = "build it"): Promise<RunId> {
  t.codex.enqueue([{ type: "fail", error: "model said no", kind: "invalid_request" }]);
  const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text });
  await settled(threadId, runId, "failed");
  await checkpointed(threadId, runId);
  return runId;
}

describe("E4: thread.retryRun over HTTP", () => {
  it("E4: a failed latest run is retried: same run, attempts [initial, retry], completed", async () => {
    const threadId = await seedThread();
    const runId = await failedRun(threadId);
    t.codex.enqueue([{ type: "text", text: "it worked" }]);
    const answer = await t.client.thread.retryRun.mutate({ threadId, runId });
    expect(answer).toMatchObject({ runId });
    const run = await settled(threadId, runId, "completed");
    expect(run.error).toBeNull();
    const detail = await t.client.thread.detail.query({ threadId });
    expect(detail.runs).toHaveLength(1);
    const attempts = detail.attempts
      .filter((a) => a.runId === runId)
      .map((a) => [a.attemptOrdinal, a.reason, a.status]);
    expect(attempts).toEqual([
      [1, "initial", "failed"],
      [2, "retry", "completed"],
    ]);
  });

  it("E4: refusals are typed and append nothing: completed, running, earlier while busy or after a later run, archived, unknown", async () => {
    const threadId = await seedThread();
    const { runId: done } = await t.client.thread.sendMessage.mutate({ threadId, text: "one" });
    await settled(threadId, done, "completed");
    await checkpointed(threadId, done);
    let head = await t.store.headSequence();
    const completed = await refusal(t.client.thread.retryRun.mutate({ threadId, runId: done }));
    expect(completed).toMatchObject({ code: "CONFLICT", domainCode: "invalid_transition" });
    expect(completed.message).toMatch(/completed/);

    const failed = await failedRun(threadId, "two");
    t.codex.enqueue([{ type: "wait", ms: 20_000 }]);
    const { runId: busy } = await t.client.thread.sendMessage.mutate({ threadId, text: "three" });
    await settled(threadId, busy, "running");
    head = await t.store.headSequence();
    const running = await refusal(t.client.thread.retryRun.mutate({ threadId, runId: busy }));
    expect(running).toMatchObject({ code: "CONFLICT", domainCode: "invalid_transition" });
    const active = await refusal(t.client.thread.retryRun.mutate({ threadId, runId: failed }));
    expect(active).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
    expect(active.message).toMatch(/still active/);
    expect(await t.store.headSequence()).toBe(head);

    await t.client.thread.interrupt.mutate({ threadId });
    await settled(threadId, busy, "interrupted");
    await checkpointed(threadId, busy);
    head = await t.store.headSequence();
    const earlier = await refusal(t.client.thread.retryRun.mutate({ threadId, runId: failed }));
    expect(earlier).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
    expect(earlier.message).toMatch(/only the latest run can be retried/);

    const unknown = await refusal(
      t.client.thread.retryRun.mutate({ threadId, runId: "run_nope" as RunId }),
    );
    expect(unknown.code).toBe("NOT_FOUND");
    const malformed = await refusal(
      t.client.thread.retryRun.mutate({ threadId, runId: "" as RunId }),
    );
    expect(malformed.code).toBe("BAD_REQUEST");
    expect(await t.store.headSequence()).toBe(head);

    await t.client.thread.archive.mutate({ threadId });
    head = await t.store.headSequence();
    const archived = await refusal(t.client.thread.retryRun.mutate({ threadId, runId: busy }));
    expect(archived).toMatchObject({ code: "PRECONDITION_FAILED" });
    expect(archived.message).toMatch(/archived/);
    expect(await t.store.headSequence()).toBe(head);
  });
});
