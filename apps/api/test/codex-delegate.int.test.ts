import { functionCallOutputs, responsesTextReply } from "@skein/fake-models";
import { functionCallReply } from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { eventually, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { firstChild } from "./support/subagent-children.ts";

const SLOW = 120_000;

describe("the app-owned delegate tool's child has the parent's lifecycle (real Codex parent)", () => {
  const harness = useCodexSkeinHarness();

  async function childRunStatus(x: Awaited<ReturnType<typeof harness>>, childId: ThreadId) {
    return [...(await x.thread(childId)).runs.values()].map((r) => r.status);
  }

  it(
    "T9: the delegated child sees the turn that asked for it, and interrupting the parent interrupts the child",
    async () => {
      const x = await harness();
      x.server.enqueue(
        functionCallReply("skein_delegate", { provider: "claude", prompt: "SLOW-TASK" }, "call_d"),
        responsesTextReply("parent continues"),
      );
      x.claude.enqueue([
        { type: "wait", ms: 60_000 },
        { type: "text", text: "too late" },
      ]);
      const threadId = await x.createThread();
      const runId = await x.send(threadId, "ASKING-TURN: please delegate");
      const childId = await firstChild(x, threadId);
      await eventually(async () => {
        expect(await childRunStatus(x, childId)).toEqual(["running"]);
      }, 30_000);
      const [childTurn] = x.claude.calls.filter((c) => c.op === "startTurn");
      expect(JSON.stringify(childTurn)).toContain("ASKING-TURN: please delegate");

      await x.orchestrator.interrupt({ threadId });
      await x.orchestrator.waitForRun(runId);
      expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("interrupted");
      // "interrupted", not "completed": the interrupt ended the child's 60 s wait, not time.
      await eventually(async () => {
        expect(await childRunStatus(x, childId)).toEqual(["interrupted"]);
      }, 30_000);
    },
    SLOW,
  );

  it(
    "T9: a delegated child past its time limit is interrupted and the parent's tool call says so",
    async () => {
      const x = await harness({ delegateTimeoutMs: 1_500 });
      x.server.enqueue(
        functionCallReply("skein_delegate", { provider: "claude", prompt: "SLOW-TASK" }, "call_d"),
        responsesTextReply("parent continues"),
      );
      x.claude.enqueue([
        { type: "wait", ms: 60_000 },
        { type: "text", text: "too late" },
      ]);
      const threadId = await x.createThread();
      const { run } = await x.run(threadId, "please delegate");
      expect(run.status).toBe("completed");
      const childId = await firstChild(x, threadId);
      expect(await childRunStatus(x, childId)).toEqual(["interrupted"]);
      expect(functionCallOutputs(x.request(1))).toEqual([
        { callId: "call_d", output: expect.stringMatching(/timed out after 2 s/) },
      ]);
    },
    SLOW,
  );
});
