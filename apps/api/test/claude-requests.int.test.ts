import { existsSync } from "node:fs";
import { join } from "node:path";
import type { RuntimeRequest, ThreadId } from "@skein/domain";
import { anthropicBashReply, anthropicTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
  eventually,
} from "./support/claude-skein-harness.ts";

let h: ClaudeSkeinHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

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
  it("E15: after Skein restarts, a waiting approval stays listed as not_resumable with the reason; the next message expires it", async () => {
    const x = await createClaudeSkeinHarness();
    h = x;
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
