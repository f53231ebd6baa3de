import { describe, expect, it } from "vitest";
import { useHarness, eventually, runMessage } from "../../../test/support/orchestrator-harness.ts";

const harness = useHarness();

describe("orchestrator run lifecycle (scripted provider)", () => {
  it("a message runs on the provider and its reply lands in turnItems", async () => {
    const h = await harness();
    h.codex.enqueue([{ type: "text", text: "hello there", chunks: 3 }]);
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      provider: "codex",
    });
    const { run, state } = await runMessage(h, threadId, "hi");
    expect(run.status).toBe("completed");
    const items = [...state.turnItems.values()]
      .sort((a, b) => a.sortKey - b.sortKey)
      .map((e) => e.item);
    expect(items.map((i) => i.type)).toEqual(["user_message", "assistant_message", "checkpoint"]);
    expect(items[1]).toMatchObject({ text: "hello there", provider: "codex" });
  });

  it("a message sent while a run is active is queued and runs afterwards", async () => {
    const h = await harness();
    h.codex.enqueue([
      { type: "wait", ms: 150 },
      { type: "text", text: "first" },
    ]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const first = await h.orchestrator.sendMessage({ threadId, text: "one" });
    await eventually(async () => expect((await h.thread(threadId)).activeRunId).toBe(first.runId));
    const second = await h.orchestrator.sendMessage({ threadId, text: "two" });
    expect((await h.thread(threadId)).runs.get(second.runId)?.status).toBe("queued");
    await h.orchestrator.waitForRun(second.runId);
    const state = await h.thread(threadId);
    expect(state.runs.get(first.runId)?.status).toBe("completed");
    expect(state.runs.get(second.runId)?.status).toBe("completed");
  });

  it("S4: the same command id twice yields one set of events and the same run", async () => {
    const h = await harness();
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const before = await h.store.headSequence();
    const a = await h.orchestrator.sendMessage({
      threadId,
      text: "once",
      commandId: "cmd_retry_1",
    });
    await h.orchestrator.waitForRun(a.runId);
    const head = await h.store.headSequence();
    const b = await h.orchestrator.sendMessage({
      threadId,
      text: "once",
      commandId: "cmd_retry_1",
    });
    expect(b).toEqual(a);
    expect(await h.store.headSequence()).toBe(head);
    const queued = (await h.store.readAll(before)).filter((e) => e.type === "RunQueued");
    expect(queued).toHaveLength(1);
  });

  it("approval: accept runs the command; decline does not; both turns complete", async () => {
    const h = await harness();
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      runtimeMode: "approval-required",
    });
    for (const decision of ["accept", "decline"] as const) {
      h.codex.enqueue([{ type: "command", command: "ls", output: "a.txt\n", approval: true }]);
      const { runId } = await h.orchestrator.sendMessage({ threadId, text: `list (${decision})` });
      const request = await eventually(async () => {
        const state = await h.thread(threadId);
        const pending = [...state.requests.values()].find((r) => r.status === "pending");
        expect(pending).toBeDefined();
        expect(state.runs.get(runId)?.status).toBe("waiting");
        return pending!;
      });
      await h.orchestrator.respondToRequest({ requestId: request.id, decision });
      await h.orchestrator.waitForRun(runId);
      const state = await h.thread(threadId);
      expect(state.runs.get(runId)?.status).toBe("completed");
      const command = [...state.turnItems.values()].find(
        (e) => e.item.runId === runId && e.item.type === "command_execution",
      )?.item;
      if (decision === "accept")
        expect(command).toMatchObject({ output: "a.txt\n", status: "completed" });
      else expect(command).toMatchObject({ status: "declined" });
    }
  });

  it("interrupt ends a running turn as interrupted", async () => {
    const h = await harness();
    h.codex.enqueue([{ type: "wait", ms: 10_000 }]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { runId } = await h.orchestrator.sendMessage({ threadId, text: "slow" });
    await eventually(async () =>
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("running"),
    );
    await h.orchestrator.interrupt({ threadId });
    await h.orchestrator.waitForRun(runId);
    expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("interrupted");
  });

  it("B2: a model HTTP 500 mid-turn starts a retry attempt of the same run, which completes", async () => {
    const h = await harness({ attempts: { baseDelayMs: 10 } });
    h.codex.enqueue([{ type: "fail", error: "model returned HTTP 500", kind: "internal" }]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { run, state } = await runMessage(h, threadId, "boom");
    expect(run.status).toBe("completed");
    const attempts = [...state.attempts.values()].filter((a) => a.runId === run.id);
    expect(attempts.map((a) => [a.reason, a.status])).toEqual([
      ["initial", "superseded"],
      ["retry", "completed"],
    ]);
  });

  it("B2: past the attempt limit the run fails with the cause in words; a failure another attempt cannot fix fails at once", async () => {
    const h = await harness({ attempts: { baseDelayMs: 10, maxRetries: 2 } });
    const fail = { type: "fail", error: "model returned HTTP 529", kind: "overloaded" } as const;
    h.codex.enqueue([fail], [fail], [fail]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const failed = await runMessage(h, threadId, "boom");
    expect(failed.run.status).toBe("failed");
    expect(failed.run.error).toBe(
      "The Codex turn failed: model returned HTTP 529 (attempt 3). The model service did not answer properly; send the message again in a moment.",
    );
    const reasons = [...failed.state.attempts.values()]
      .filter((a) => a.runId === failed.runId)
      .map((a) => a.reason);
    expect(reasons).toEqual(["initial", "retry", "retry"]);
    h.codex.enqueue([
      { type: "fail", error: "model returned HTTP 400: prompt too long", kind: "context_too_long" },
    ]);
    const refused = await runMessage(h, threadId, "too long");
    expect(refused.run.status).toBe("failed");
    expect(
      [...refused.state.attempts.values()].filter((a) => a.runId === refused.runId),
    ).toHaveLength(1);
    expect((await runMessage(h, threadId, "again")).run.status).toBe("completed");
  });
});
