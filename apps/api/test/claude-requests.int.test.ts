import { existsSync } from "node:fs";
import { join } from "node:path";
import { type RuntimeRequest, type ThreadId, threadStreamId } from "@skein/domain";
import {
  anthropicBashReply,
  anthropicLatestUserText,
  anthropicTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import {
  type ClaudeSkeinHarness,
  useClaudeSkeinHarness,
  eventually,
} from "./support/claude-skein-harness.ts";
import { attemptsOf } from "./support/attempts-shown.ts";

const harness = useClaudeSkeinHarness();

async function pendingOf(x: ClaudeSkeinHarness, threadId: ThreadId): Promise<RuntimeRequest> {
  return eventually(async () => {
    const pending = [...(await x.thread(threadId)).requests.values()].find(
      (r) => r.status === "pending",
    );
    if (!pending) throw new Error("no pending request yet");
    return pending;
  }, 30_000);
}

describe("Claude runtime requests are never stranded (real SDK)", () => {
  it("E15: a permission Claude withdraws (its turn interrupted while asking) closes at once with the reason", async () => {
    const x = await harness();
    const never = join(x.workspaceRoot, "never.txt");
    x.anthropic.enqueue(anthropicBashReply(`touch ${never}`));
    const threadId = await x.createThread({ runtimeMode: "approval-required" });
    const { runId } = await x.orchestrator.sendMessage({ threadId, text: "make the file" });
    const request = await pendingOf(x, threadId);
    await x.orchestrator.interrupt({ threadId });
    await x.orchestrator.waitForRun(runId);

    const reads = createReadModels(x.store);
    expect((await reads.pendingRequests()).requests).toEqual([]);
    const detail = await reads.detail(threadId);
    expect(detail.pendingRequests).toEqual([]);
    // Claude Code cancels its canUseTool call; the row says so (a turn-end sweep has no reason).
    const item = detail.turnItems.find(
      (i) => i.type === "approval_request" && i.requestId === request.id,
    );
    expect(item?.status).toBe("cancelled");
    expect((await x.thread(threadId)).requests.get(request.id)).toMatchObject({
      status: "cancelled",
      responseCapability: { type: "not_resumable", reason: expect.stringMatching(/withdrew/) },
    });
    expect(detail.runs.find((r) => r.id === runId)?.status).toBe("interrupted");
    // At once: the withdrawal is recorded from Claude's cancel, before the turn's end.
    const types = (await x.store.readStream(threadStreamId(threadId))).map((e) => e.type);
    const withdrawn = types.indexOf("RuntimeRequestWithdrawn");
    expect(withdrawn).toBeGreaterThan(-1);
    expect(withdrawn).toBeLessThan(types.indexOf("ProviderTurnCompleted"));
    expect(existsSync(never)).toBe(false);
  }, 60_000);

  it("E15, E4: after a restart, retrying the run whose approval was stranded starts a new attempt that completes and closes the request", async () => {
    const x = await harness();
    const stranded = join(x.workspaceRoot, "stranded.txt");
    x.anthropic.enqueue(anthropicBashReply(`touch ${stranded}`));
    const threadId = await x.createThread({ runtimeMode: "approval-required" });
    const { runId } = await x.orchestrator.sendMessage({ threadId, text: "make the file" });
    const request = await pendingOf(x, threadId);
    await x.restart();
    const reads = createReadModels(x.store);
    expect((await reads.pendingRequests()).requests).toEqual([
      expect.objectContaining({ id: request.id, answerable: false }),
    ]);

    x.anthropic.enqueue(anthropicTextReply("RETRIED"));
    await x.orchestrator.retryRun({ threadId, runId });
    await x.orchestrator.waitForRun(runId);
    const state = await x.thread(threadId);
    expect([state.runs.get(runId)?.status, state.runs.get(runId)?.error]).toEqual([
      "completed",
      null,
    ]);
    expect(await attemptsOf(x, threadId, runId)).toEqual([
      [1, "initial", "interrupted"],
      [2, "retry", "completed"],
    ]);
    // From the last stable point: the new attempt sends the run's text again.
    expect(anthropicLatestUserText(x.claudeRequests().at(-1)!)).toBe("make the file");
    expect(state.requests.get(request.id)?.status).toBe("expired");
    expect((await reads.pendingRequests()).requests).toEqual([]);
    expect((await reads.detail(threadId)).pendingRequests).toEqual([]);
    expect(existsSync(stranded)).toBe(false);
  }, 90_000);

  it("E15: after Skein restarts, a waiting approval stays listed as not_resumable with the reason; the next message expires it", async () => {
    const x = await harness();
    const stranded = join(x.workspaceRoot, "stranded.txt");
    x.anthropic.enqueue(anthropicBashReply(`touch ${stranded}`), anthropicTextReply("AFTER"));
    const threadId = await x.createThread({ runtimeMode: "approval-required" });
    const { runId } = await x.orchestrator.sendMessage({ threadId, text: "make the file" });
    const request = await pendingOf(x, threadId);
    await x.restart();

    const reads = createReadModels(x.store);
    expect((await reads.pendingRequests()).requests).toEqual([
      expect.objectContaining({
        id: request.id,
        status: "pending",
        answerable: false,
        responseCapability: {
          type: "not_resumable",
          reason: expect.stringMatching(/Skein was stopped|Skein restarted/),
        },
      }),
    ]);
    const detail = await reads.detail(threadId);
    expect(detail.pendingRequests).toEqual([
      expect.objectContaining({ id: request.id, answerable: false }),
    ]);
    expect(detail.runs.find((r) => r.id === runId)?.status).toBe("interrupted");
    await expect(
      x.orchestrator.respondToRequest({ requestId: request.id, decision: "accept" }),
    ).rejects.toThrow(/can no longer be answered: .*Skein (was stopped|restarted)/);
    expect(existsSync(stranded)).toBe(false);

    x.anthropic.enqueue(anthropicTextReply("AFTER"));
    const next = await x.send(threadId, "carry on");
    expect(next.state.runs.get(next.runId)?.status).toBe("completed");
    expect((await reads.pendingRequests()).requests).toEqual([]);
    expect((await x.thread(threadId)).requests.get(request.id)?.status).toBe("expired");
  }, 90_000);
});
