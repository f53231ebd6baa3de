import {
  anthropicBashReply,
  anthropicTaskReply,
  anthropicTextReply,
  anthropicToolResults,
  anthropicToolUseReply,
} from "@skein/fake-models";
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

/**
 * Claude's Task sub-agent lives inside its parent's session. Once its Agent call has returned,
 * Claude can still continue it: the parent model sends it a message (SendMessage to the agent id
 * the call's result names), also from a resumed session after Skein restarted. That resumed run
 * names the first Agent call as its parent, which is how it finds its child thread again.
 */
describe("Claude sub-agents: the child thread outlives a restart and can be promoted (real Agent SDK)", () => {
  it(
    "T9, E8, E9: after a restart the Task sub-agent Claude resumes lands in the same child thread; promoted, it is a thread of its own that continues with its history and no longer stops with its parent",
    async () => {
      const h = await harness();
      h.anthropic.enqueue(
        anthropicTaskReply("CHILD-TASK: say hi", { description: "helper job" }),
        anthropicTextReply("PARENT-ONE"),
      );
      h.anthropic.enqueueSubagent(anthropicTextReply("CHILD-ONE-REPORT"));
      const threadId = await h.createThread();
      const first = await h.send(threadId, "delegate to a helper");
      expect(first.state.runs.get(first.runId)?.status).toBe("completed");
      const childId = await firstChild(h, threadId);

      const report = anthropicToolResults(h.claudeRequests().at(-1)!)[0]?.text ?? "";
      const agentId = /agentId: (\w+)/.exec(report)?.[1];
      expect(agentId).toBeDefined();

      // E8: after a restart, the sub-agent Claude resumes lands in the same child thread.
      await h.restart();
      h.anthropic.enqueue(
        anthropicToolUseReply("SendMessage", {
          to: agentId,
          summary: "more work",
          message: "TASK-TWO: say more",
        }),
        // The resumed sub-agent runs in the background: the parent's answer waits for its report.
        anthropicTextReply("PARENT-TWO", { headerDelayMs: 4_000 }),
      );
      h.anthropic.enqueueSubagent(anthropicTextReply("CHILD-TWO-REPORT"));
      const second = await h.send(threadId, "ask the helper again");
      expect(second.state.runs.get(second.runId)?.status).toBe("completed");
      expect(itemSummaries(second.state).join("\n")).not.toContain("CHILD-TWO-REPORT");
      expect((await childShells(h, threadId)).map((c) => c.id)).toEqual([childId]);
      const again = await eventually(async () => {
        const c = await h.thread(childId);
        expect([...c.runs.values()].map((r) => r.status)).toEqual(["completed", "completed"]);
        return c;
      }, 30_000);
      expect(itemSummaries(again)).toEqual([
        expect.stringMatching(/^user_message: Sub-agent task from .*: helper job$/),
        "assistant_message: CHILD-ONE-REPORT",
        expect.stringMatching(/^user_message: Sub-agent task from .*: TASK-TWO: say more$/),
        "assistant_message: CHILD-TWO-REPORT",
      ]);

      // Promoted: its own row in the list, not under the parent; the same command id answers once.
      const promoted = await h.orchestrator.promote({
        threadId: childId,
        commandId: "cmd_promote",
      });
      expect(await h.orchestrator.promote({ threadId: childId, commandId: "cmd_promote" })).toEqual(
        promoted,
      );
      expect(await childShells(h, threadId)).toEqual([]);
      const { threads } = await createReadModels(h.store).shells();
      expect(threads.find((t) => t.id === childId)?.lineage).toMatchObject({
        parentThreadId: null,
        relationshipToParent: null,
      });

      // A message continues it: the model request carries the sub-agent's earlier work. The reply
      // is tied to the person's words, not to the queue: when the parent's turn ends before its
      // background sub-agent reports (a loaded machine), Claude Code can wake the parent's session
      // with a request of its own, which would otherwise take the next queued reply.
      h.anthropic.answerPrompt("PERSON-TO-PROMOTED", anthropicTextReply("PROMOTED-REPLY"));
      const continued = await h.send(childId, "PERSON-TO-PROMOTED: go on");
      expect([...continued.state.runs.values()].map((r) => r.status)).toEqual([
        "completed",
        "completed",
        "completed",
      ]);
      const request = JSON.stringify(h.claudeRequests().at(-1)?.body);
      expect(request).toContain("PERSON-TO-PROMOTED: go on");
      expect(request).toContain("CHILD-ONE-REPORT");
      expect(request).toContain("CHILD-TWO-REPORT");
      expect(itemSummaries(continued.state)).toContain("assistant_message: PROMOTED-REPLY");

      // The sub-agent's later work goes to a new child thread; the parent's interrupt stops that
      // one and leaves the promoted thread alone.
      h.anthropic.enqueue(
        anthropicToolUseReply("SendMessage", {
          to: agentId,
          summary: "write a file",
          message: "TASK-THREE: write three.txt",
        }),
        anthropicTextReply("PARENT-THREE", { headerDelayMs: 4_000 }),
      );
      h.anthropic.enqueueSubagent(
        anthropicBashReply("echo three > three.txt"),
        anthropicTextReply("CHILD-THREE"),
      );
      const { runId: third } = await h.orchestrator.sendMessage({
        threadId,
        text: "and once more",
      });
      const newChildId = await firstChild(h, threadId);
      expect(newChildId).not.toBe(childId);
      await pendingRequestOf(h, newChildId);
      expect(itemSummaries(await h.thread(newChildId))[0]).toContain("TASK-THREE");
      await h.orchestrator.interrupt({ threadId });
      await h.orchestrator.waitForRun(third);
      await eventually(async () => {
        const runs = [...(await h.thread(newChildId)).runs.values()];
        expect(runs.map((r) => r.status)).toEqual(["interrupted"]);
      }, 30_000);
      const own = await h.thread(childId);
      expect([...own.runs.values()].map((r) => r.status)).toEqual([
        "completed",
        "completed",
        "completed",
      ]);
      expect(own.activeRunId).toBeNull();
      expect(itemSummaries(own).join("\n")).not.toContain("TASK-THREE");
    },
    SLOW,
  );
});
