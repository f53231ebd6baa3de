import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { functionCallOutputs, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { eventually, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import {
  childShells,
  firstChild,
  helperAgent,
  helperRunsCommand,
  itemSummaries,
  pendingRequestOf,
} from "./support/subagent-children.ts";

const SLOW = 120_000;
const { parent, child } = helperAgent;

describe("Codex sub-agents become child threads (real app-server, multi_agent_v2)", () => {
  const harness = useCodexSkeinHarness();

  it(
    "T9/E5: a sub-agent is a subagent node in the parent and a child thread whose items are its own",
    async () => {
      const x = await harness({ features: { multi_agent_v2: true } });
      x.server.enqueue(...helperRunsCommand("CHILD-TASK: say hi", "echo CHILD-RAN"), {
        ...responsesTextReply("PARENT-DONE"),
        when: parent,
      });
      const threadId = await x.createThread({ runtimeMode: "full-access" });
      const { run } = await x.run(threadId, "delegate to a helper");
      expect(run.status).toBe("completed");

      const children = await childShells(x, threadId);
      expect(children).toEqual([
        expect.objectContaining({
          lineage: {
            parentThreadId: threadId,
            relationshipToParent: "subagent",
            rootThreadId: threadId,
          },
          defaultProvider: "codex",
          runCount: 1,
          status: "idle",
        }),
      ]);
      const childId = children[0]!.id;
      const childState = await x.thread(childId);
      const [childRun] = [...childState.runs.values()];
      expect(childRun?.status).toBe("completed");
      expect(itemSummaries(childState)).toEqual([
        expect.stringMatching(/^user_message: Sub-agent task from .*\/root\/helper/),
        "command_execution: /bin/bash -lc 'echo CHILD-RAN'",
        "assistant_message: CHILD-DONE",
      ]);
      // The child's provider thread is the sub-agent's own native thread.
      const [providerThread] = [...childState.providerThreads.values()];
      const parentState = await x.thread(threadId);
      const [parentProviderThread] = [...parentState.providerThreads.values()].filter(
        (p) => !p.ownerNodeId,
      );
      expect(providerThread?.nativeThreadRef).toBeTruthy();
      expect(providerThread?.nativeThreadRef).not.toBe(parentProviderThread?.nativeThreadRef);

      // E5: the parent keeps a subagent node; the child's work is not in the parent's items.
      const nodes = [...parentState.nodes.values()];
      const subagents = nodes.filter((n) => n.kind === "subagent");
      expect(subagents).toHaveLength(1);
      // E9: the parent's graph leads from that node to the sub-agent's native thread.
      const nested = [...parentState.providerThreads.values()].filter((p) => p.ownerNodeId);
      expect(nested).toEqual([
        expect.objectContaining({
          ownerNodeId: subagents[0]?.id,
          appThreadId: null,
          nativeThreadRef: providerThread?.nativeThreadRef,
        }),
      ]);
      const parentItems = itemSummaries(parentState);
      expect(parentItems).toContain("dynamic_tool: subagent");
      expect(parentItems).toContain("assistant_message: PARENT-DONE");
      expect(parentItems.join("\n")).not.toMatch(/CHILD-RAN|CHILD-DONE/);
      expect(parentState.runs.get(run.id)?.status).toBe("completed");

      // The child thread is a thread like any other: a message continues it. Codex takes no
      // direct input on a sub-agent's thread, so it goes on in a new provider thread that gets
      // the child's history as a handoff.
      x.server.enqueue({ ...responsesTextReply("CHILD-AGAIN"), when: () => true });
      const next = await x.run(childId, "PERSON-TO-CHILD: one more thing");
      expect(next.run.error).toBeNull();
      expect(next.run.status).toBe("completed");
      expect(next.run.providerThreadId).not.toBe(providerThread?.id);
      const continued = JSON.stringify(x.request(-1).input);
      expect(continued).toContain("PERSON-TO-CHILD: one more thing");
      expect(continued).toContain("CHILD-RAN");
      expect(continued).toContain("CHILD-DONE");
      expect(itemSummaries(await x.thread(childId))).toContain("assistant_message: CHILD-AGAIN");
    },
    SLOW,
  );

  it(
    "T9, E15: a sub-agent's approval is asked in its child thread, listed for the person and answered there",
    async () => {
      const x = await harness({ features: { multi_agent_v2: true } });
      x.server.enqueue(
        ...helperRunsCommand(
          "CHILD-TASK: write child.txt",
          "echo from-child > child.txt && echo CHILD-RAN",
        ),
        { ...responsesTextReply("PARENT-DONE"), when: parent },
      );
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const runId = await x.send(threadId, "delegate to a helper");
      const childId = await firstChild(x, threadId);
      const request = await pendingRequestOf(x, childId);
      const childRunId = [...(await x.thread(childId)).runs.keys()][0];
      expect(request).toMatchObject({ kind: "command", runId: childRunId });
      if (!request.runId) throw new Error("the request has no run");
      // The command shows once, in the title or under it (B16).
      expect(`${request.title}\n${request.detail ?? ""}`).toContain("echo from-child");
      expect([...(await x.thread(threadId)).requests.values()]).toEqual([]);
      const reads = createReadModels(x.store);
      expect((await reads.pendingRequests()).requests).toEqual([
        expect.objectContaining({ id: request.id, threadId: childId, answerable: true }),
      ]);
      expect((await reads.detail(childId)).pendingRequests.map((r) => r.id)).toEqual([request.id]);
      expect(existsSync(join(x.workspace, "child.txt"))).toBe(false);

      await x.orchestrator.respondToRequest({ requestId: request.id, decision: "accept" });
      await x.orchestrator.waitForRun(runId);
      expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("completed");
      expect(readFileSync(join(x.workspace, "child.txt"), "utf8")).toBe("from-child\n");
      const childFollowUp = x.server.requests.filter(child).at(-1);
      if (!childFollowUp) throw new Error("the sub-agent made no model request");
      expect(functionCallOutputs(childFollowUp).at(-1)?.output).toContain("CHILD-RAN");
      const childState = await x.thread(childId);
      expect(childState.requests.get(request.id)).toMatchObject({
        status: "resolved",
        decision: "accept",
      });
      expect(childState.runs.get(request.runId)?.status).toBe("completed");
    },
    SLOW,
  );

  it(
    "T9: interrupting the parent interrupts its sub-agent, whose child run ends interrupted",
    async () => {
      const x = await harness({ features: { multi_agent_v2: true } });
      x.server.enqueue(
        ...helperRunsCommand("CHILD-TASK: write child.txt", "echo from-child > child.txt"),
        { ...responsesTextReply("PARENT-DONE"), when: parent },
      );
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      const runId = await x.send(threadId, "delegate to a helper");
      const childId = await firstChild(x, threadId);
      const request = await pendingRequestOf(x, childId);
      const childRunId = request.runId;
      if (!childRunId) throw new Error("the request has no run");

      await x.orchestrator.interrupt({ threadId });
      await x.orchestrator.waitForRun(runId);
      expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("interrupted");
      const childRun = await eventually(async () => {
        const r = (await x.thread(childId)).runs.get(childRunId);
        if (r?.status !== "interrupted") throw new Error(`child run is ${r?.status}`);
        return r;
      }, 30_000);
      expect(childRun.status).toBe("interrupted");
      expect((await x.thread(childId)).requests.get(request.id)?.status).not.toBe("pending");
      expect((await createReadModels(x.store).pendingRequests()).requests).toEqual([]);
      expect(existsSync(join(x.workspace, "child.txt"))).toBe(false);
      // The sub-agent's turn was stopped natively too: it never asked the model again.
      expect(x.server.requests.filter(child)).toHaveLength(1);
    },
    SLOW,
  );
});
