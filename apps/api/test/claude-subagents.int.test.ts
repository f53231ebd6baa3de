import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicBashReply, anthropicTaskReply, anthropicTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { useClaudeSkeinHarness, eventually } from "./support/claude-skein-harness.ts";
import {
  childShells,
  firstChild,
  itemSummaries,
  pendingRequestOf,
} from "./support/subagent-children.ts";

const SLOW = 120_000;

const harness = useClaudeSkeinHarness();

/** A parent whose Task sub-agent wants to run a command: the child's approval is pending. */
async function childAsksToWrite() {
  const h = await harness();
  h.anthropic.enqueue(
    anthropicTaskReply("Write child.txt", { description: "writer" }),
    anthropicTextReply("parent done"),
  );
  h.anthropic.enqueueSubagent(
    anthropicBashReply("echo from-child > child.txt"),
    anthropicTextReply("child wrote it"),
  );
  const threadId = await h.createThread({ runtimeMode: "approval-required" });
  const { runId } = await h.orchestrator.sendMessage({ threadId, text: "delegate" });
  const childId = await firstChild(h, threadId);
  return { h, threadId, runId, childId, request: await pendingRequestOf(h, childId) };
}

describe("Claude Task sub-agents become child threads (real Agent SDK)", () => {
  it(
    "T9/E5: an Agent call is a subagent node in the parent and a child thread holding the sub-agent's items",
    async () => {
      const h = await harness();
      h.anthropic.enqueue(
        anthropicTaskReply("Look into it", { description: "child job" }),
        anthropicTextReply("parent done"),
      );
      h.anthropic.enqueueSubagent(anthropicTextReply("child report"));
      const threadId = await h.createThread();
      const { runId, state } = await h.send(threadId, "use a subagent");
      expect(state.runs.get(runId)?.status).toBe("completed");

      const children = await childShells(h, threadId);
      expect(children).toEqual([
        expect.objectContaining({
          title: "child job",
          lineage: {
            parentThreadId: threadId,
            relationshipToParent: "subagent",
            rootThreadId: threadId,
          },
          defaultProvider: "claude",
          runCount: 1,
        }),
      ]);
      const child = await h.thread(children[0]!.id);
      expect([...child.runs.values()].map((r) => r.status)).toEqual(["completed"]);
      expect(itemSummaries(child)).toEqual([
        expect.stringMatching(/^user_message: Sub-agent task from .*: child job$/),
        "assistant_message: child report",
      ]);
      // Claude's sub-agent lives inside the parent's session: its provider thread closes with it.
      expect([...child.providerThreads.values()].map((p) => p.status)).toEqual(["closed"]);

      // E5: the parent keeps one subagent node; the sub-agent's messages are not the parent's.
      const subagents = [...state.nodes.values()].filter((n) => n.kind === "subagent");
      expect(subagents).toHaveLength(1);
      const [childProviderThread] = [...child.providerThreads.values()];
      expect([...state.providerThreads.values()].filter((p) => p.ownerNodeId)).toEqual([
        expect.objectContaining({
          ownerNodeId: subagents[0]?.id,
          nativeThreadRef: childProviderThread?.nativeThreadRef,
        }),
      ]);
      expect(itemSummaries(state)).toEqual([
        "user_message: use a subagent",
        "dynamic_tool: subagent",
        "assistant_message: parent done",
        "checkpoint",
      ]);
      expect([...state.messages.values()].map((m) => m.text)).not.toContain("child report");

      // The child thread continues like any thread: a new Claude session, handed its history.
      h.anthropic.enqueue(anthropicTextReply("child again"));
      const next = await h.send(child.thread!.id, "PERSON-TO-CHILD: one more thing");
      expect([...next.state.runs.values()].map((r) => r.status)).toEqual([
        "completed",
        "completed",
      ]);
      const continued = JSON.stringify(h.claudeRequests().at(-1)?.body);
      expect(continued).toContain("PERSON-TO-CHILD: one more thing");
      expect(continued).toContain("child report");
      expect(itemSummaries(next.state)).toContain("assistant_message: child again");
    },
    SLOW,
  );

  it(
    "T9: a background Agent call's child thread follows the sub-agent until its task ends",
    async () => {
      const h = await harness();
      h.anthropic.enqueue(
        anthropicTaskReply("Look into it", { description: "bg job", background: true }),
        // The parent goes on at once; its answer takes a while, so the child ends first.
        anthropicTextReply("parent done", { headerDelayMs: 5_000 }),
      );
      h.anthropic.enqueueSubagent(anthropicTextReply("bg report"));
      const threadId = await h.createThread();
      const { runId, state } = await h.send(threadId, "use a background subagent");
      expect(state.runs.get(runId)?.status).toBe("completed");
      const childId = await firstChild(h, threadId);
      const child = await eventually(async () => {
        const c = await h.thread(childId);
        const statuses = [...c.runs.values()].map((r) => r.status);
        if (statuses[0] === "running") throw new Error("child still running");
        return c;
      }, 30_000);
      expect([...child.runs.values()].map((r) => [r.status, r.error])).toEqual([
        ["completed", null],
      ]);
      expect(itemSummaries(child)).toContain("assistant_message: bg report");
    },
    SLOW,
  );

  it(
    "T9, E15: a sub-agent's tool approval is asked in its child thread and answered there",
    async () => {
      const { h, threadId, runId, childId, request } = await childAsksToWrite();
      expect(request.kind).toBe("command");
      expect(request.detail).toContain("echo from-child");
      expect([...(await h.thread(threadId)).requests.values()]).toEqual([]);
      expect((await createReadModels(h.store).pendingRequests()).requests).toEqual([
        expect.objectContaining({ id: request.id, threadId: childId, answerable: true }),
      ]);
      expect(existsSync(join(h.workspaceRoot, "child.txt"))).toBe(false);

      await h.orchestrator.respondToRequest({ requestId: request.id, decision: "accept" });
      await h.orchestrator.waitForRun(runId);
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("completed");
      expect(readFileSync(join(h.workspaceRoot, "child.txt"), "utf8")).toBe("from-child\n");
      const child = await h.thread(childId);
      expect(child.requests.get(request.id)).toMatchObject({
        status: "resolved",
        decision: "accept",
      });
      expect(itemSummaries(child)).toContain("assistant_message: child wrote it");
      expect([...child.runs.values()].map((r) => r.status)).toEqual(["completed"]);
    },
    SLOW,
  );

  it(
    "T9: interrupting the parent interrupts its Claude sub-agent, whose child run ends interrupted",
    async () => {
      const { h, threadId, runId, childId, request } = await childAsksToWrite();

      await h.orchestrator.interrupt({ threadId });
      await h.orchestrator.waitForRun(runId);
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("interrupted");
      const childRun = await eventually(async () => {
        const run = (await h.thread(childId)).runs.get(request.runId!);
        if (run?.status !== "interrupted") throw new Error(`child run is ${run?.status}`);
        return run;
      }, 30_000);
      expect(childRun.status).toBe("interrupted");
      expect((await h.thread(childId)).requests.get(request.id)?.status).not.toBe("pending");
      expect((await createReadModels(h.store).pendingRequests()).requests).toEqual([]);
      expect(existsSync(join(h.workspaceRoot, "child.txt"))).toBe(false);
    },
    SLOW,
  );
});
