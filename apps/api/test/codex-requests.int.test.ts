import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  execCommandReply,
  forAgent,
  messageTexts,
  notForAgent,
  responsesTextReply,
  spawnAgentReply,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import {
  type CodexSkeinHarness,
  createCodexSkeinHarness,
  eventually,
} from "./support/codex-skein-harness.ts";
import { attemptsOf } from "./support/attempts-shown.ts";
import { firstChild, pendingRequestOf } from "./support/subagent-children.ts";

const SLOW = 90_000;

let h: CodexSkeinHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe("Codex runtime requests are never stranded (real app-server)", () => {
  it(
    "a request Codex withdraws (its sub-agent was interrupted) closes at once with the reason while the run goes on",
    async () => {
      const x = await createCodexSkeinHarness({ features: { multi_agent_v2: true } });
      h = x;
      const parent = notForAgent("helper");
      const child = forAgent("helper");
      const collab = (name: string, args: unknown) => ({
        kind: "response" as const,
        items: [
          { type: "function_call" as const, name, namespace: "collaboration", arguments: args },
        ],
        when: parent,
      });
      x.server.enqueue(
        { ...spawnAgentReply("helper", "CHILD-TASK: write child.txt", "call_spawn"), when: parent },
        { ...execCommandReply("echo from-child > child.txt"), when: child },
        collab("wait_agent", { timeout_ms: 60_000 }),
        collab("interrupt_agent", { target: "helper" }),
        { ...responsesTextReply("PARENT-DONE"), when: parent },
      );
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const runId = await x.send(threadId, "delegate to a helper");
      // The helper's approval is asked in its child thread (T9).
      const childId = await firstChild(x, threadId);
      const request = await pendingRequestOf(x, childId);
      // A steer ends the parent's wait; the model then interrupts the helper mid-approval.
      await x.orchestrator.steer({ threadId, text: "stop the helper" });
      const closed = await eventually(async () => {
        const r = (await x.thread(childId)).requests.get(request.id);
        if (r?.status === "pending") throw new Error("still pending");
        return r;
      }, 30_000);
      const run = (await x.thread(threadId)).runs.get(runId);
      expect(closed).toMatchObject({
        status: "cancelled",
        responseCapability: { type: "not_resumable", reason: expect.stringMatching(/withdrew/) },
      });
      expect(run?.status === "running" || run?.status === "completed").toBe(true);
      expect((await createReadModels(x.store).pendingRequests()).requests).toEqual([]);
      await x.orchestrator.waitForRun(runId);
      expect(existsSync(join(x.workspace, "child.txt"))).toBe(false);
    },
    SLOW,
  );

  it(
    "E15: after Skein restarts, a waiting approval stays listed as not_resumable with the reason; the next message expires it",
    async () => {
      const x = await createCodexSkeinHarness();
      h = x;
      x.server.enqueue(execCommandReply("echo ran > stranded.txt"), responsesTextReply("AFTER"));
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const runId = await x.send(threadId, "run it");
      const request = await pendingRequestOf(x, threadId);
      await x.restart();

      const reads = createReadModels(x.store);
      const listed = await reads.pendingRequests();
      expect(listed.requests).toEqual([
        expect.objectContaining({
          id: request.id,
          status: "pending",
          answerable: false,
          responseCapability: {
            type: "not_resumable",
            reason: expect.stringMatching(/Skein was stopped/),
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
      expect(existsSync(join(x.workspace, "stranded.txt"))).toBe(false);

      const next = await x.run(threadId, "carry on");
      expect(next.run.status).toBe("completed");
      expect((await reads.pendingRequests()).requests).toEqual([]);
      expect((await x.thread(threadId)).requests.get(request.id)?.status).toBe("expired");
    },
    SLOW,
  );

  it(
    "E15, E4: after a restart, retrying the run whose approval was stranded starts a new attempt that completes and closes the request",
    async () => {
      const x = await createCodexSkeinHarness();
      h = x;
      x.server.enqueue(execCommandReply("echo ran > stranded.txt"));
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const runId = await x.send(threadId, "run it");
      const request = await pendingRequestOf(x, threadId);
      await x.restart();
      const reads = createReadModels(x.store);
      expect((await reads.pendingRequests()).requests).toEqual([
        expect.objectContaining({ id: request.id, answerable: false }),
      ]);

      x.server.enqueue(responsesTextReply("RETRIED"));
      await x.orchestrator.retryRun({ threadId, runId });
      const retried = await x.waitForRunStatus(threadId, runId, ["completed", "failed"], 30_000);
      expect([retried.status, retried.error]).toEqual(["completed", null]);
      expect(await attemptsOf(x, threadId, runId)).toEqual([
        [1, "initial", "interrupted"],
        [2, "retry", "completed"],
      ]);
      // From the last stable point: the new attempt sends the run's text again.
      expect(messageTexts(x.request(-1), "user").at(-1)).toBe("run it");
      expect((await x.thread(threadId)).requests.get(request.id)?.status).toBe("expired");
      expect((await reads.pendingRequests()).requests).toEqual([]);
      expect((await reads.detail(threadId)).pendingRequests).toEqual([]);
      expect(existsSync(join(x.workspace, "stranded.txt"))).toBe(false);
    },
    SLOW,
  );
});
