import { describe, expect, it } from "vitest";
import { useHarness, eventually, runMessage } from "../../../test/support/orchestrator-harness.ts";

const harness = useHarness();

describe("steering and recovery", () => {
  it("R1: steering a provider without native steer interrupts and restarts the attempt under the same run", async () => {
    const h = await harness({ capabilities: { codex: { steer: false } } });
    h.codex.enqueue([{ type: "wait", ms: 10_000 }], [{ type: "text", text: "steered answer" }]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { runId } = await h.orchestrator.sendMessage({ threadId, text: "start" });
    await eventually(async () =>
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("running"),
    );
    await h.orchestrator.steer({ threadId, text: "actually, do this" });
    await h.orchestrator.waitForRun(runId);
    const state = await h.thread(threadId);
    expect(state.runs.get(runId)?.status).toBe("completed");
    const attempts = [...state.attempts.values()].filter((a) => a.runId === runId);
    expect(attempts.map((a) => a.reason)).toEqual(["initial", "steering_restart"]);
    expect(["superseded", "interrupted"]).toContain(attempts[0]?.status);
    expect(attempts[1]?.status).toBe("completed");
    expect(h.codex.calls.some((c) => c.op === "steerTurn")).toBe(false);
    const inputs = h.codex.calls
      .filter((c) => c.op === "startTurn")
      .map((c) => (c.args as { input: { text: string } }).input.text);
    expect(inputs).toEqual(["start", "actually, do this"]);
  });

  it("steering a provider with native steer adds input to the running turn", async () => {
    const h = await harness();
    h.codex.enqueue([
      { type: "wait", ms: 200 },
      { type: "text", text: "done" },
    ]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { runId } = await h.orchestrator.sendMessage({ threadId, text: "start" });
    await eventually(async () =>
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("running"),
    );
    await h.orchestrator.steer({ threadId, text: "and more" });
    await h.orchestrator.waitForRun(runId);
    const state = await h.thread(threadId);
    expect(state.runs.get(runId)?.status).toBe("completed");
    expect(h.codex.calls.find((c) => c.op === "steerTurn")?.args).toMatchObject({
      text: "and more",
    });
    expect([...state.attempts.values()].filter((a) => a.runId === runId)).toHaveLength(1);
  });

  it("R2: after a restart an in-flight run ends interrupted, its request is not resumable, and the next message works", async () => {
    const h = await harness();
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      runtimeMode: "approval-required",
    });
    await runMessage(h, threadId, "first");
    h.codex.enqueue([{ type: "command", command: "rm -rf build", output: "", approval: true }]);
    const { runId } = await h.orchestrator.sendMessage({ threadId, text: "clean up" });
    const request = await eventually(async () => {
      const pending = [...(await h.thread(threadId)).requests.values()].find(
        (r) => r.status === "pending",
      );
      expect(pending).toBeDefined();
      return pending!;
    });
    // The server restarts: the old instance stays blocked on the approval nobody will answer (it
    // writes nothing more, as a dead process would) and a new orchestrator takes over the log.
    const next = await h.restart();
    await next.recover();
    const state = await h.thread(threadId);
    expect(state.runs.get(runId)?.status).toBe("interrupted");
    const after = state.requests.get(request.id)!;
    expect(after.responseCapability.type).toBe("not_resumable");
    await expect(
      next.respondToRequest({ requestId: request.id, decision: "accept" }),
    ).rejects.toMatchObject({
      code: "precondition_failed",
    });
    const { run } = await runMessage(h, threadId, "after restart");
    expect(run.status).toBe("completed");
    const turns = h.codex.calls.filter((c) => c.op === "resumeThread");
    expect(turns).toHaveLength(1);
  });

  it("R2: an idle runtime is reaped, its session stopped, and the next message resumes the thread", async () => {
    const h = await harness({ sessionIdleMs: 100 });
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    await runMessage(h, threadId, "before the reaper");
    await eventually(async () => {
      const { data } = await h.store.snapshot((q) => q.list("provider_sessions", {}));
      expect(data.map((row) => row.status)).toEqual(["stopped"]);
    });
    expect(h.codex.sessions[0]?.isAlive()).toBe(false);
    const { run } = await runMessage(h, threadId, "after the reaper");
    expect(run.status).toBe("completed");
    expect(h.codex.calls.filter((c) => c.op === "resumeThread")).toHaveLength(1);
    const nativeRefs = h.codex.calls
      .filter((c) => c.op === "startTurn")
      .map((c) => (c.args as { nativeThreadRef: string }).nativeThreadRef);
    expect(new Set(nativeRefs).size).toBe(1);
  });
});
