import { anthropicBashReply, anthropicTaskReply, anthropicTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
  eventually,
} from "./support/claude-skein-harness.ts";
import {
  childShells,
  firstChild,
  itemSummaries,
  pendingRequestOf,
} from "./support/subagent-children.ts";

const SLOW = 120_000;

let h: ClaudeSkeinHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/**
 * Claude's Task sub-agent lives inside its parent's session and is known by its Agent call: once
 * that call has returned, Claude runs no further turn of it on its own (the adapter marks it not
 * resumable and its provider thread closes). A later Agent call is a new sub-agent with a new
 * child thread. So what a restart must keep here is the child thread and its link to the parent,
 * read back from the log; promoting it then continues it as a thread of its own.
 */
describe("Claude sub-agents: the child thread outlives a restart and can be promoted (real Agent SDK)", () => {
  it(
    "T9, E8, E9: after a restart the Task sub-agent's child thread is still the parent's; promoted, it is a thread of its own that continues with its history and no longer stops with its parent",
    async () => {
      h = await createClaudeSkeinHarness();
      h.anthropic.enqueue(
        anthropicTaskReply("CHILD-TASK: say hi", { description: "helper job" }),
        anthropicTextReply("PARENT-ONE"),
      );
      h.anthropic.enqueueSubagent(anthropicTextReply("CHILD-ONE-REPORT"));
      const threadId = await h.createThread();
      const first = await h.send(threadId, "delegate to a helper");
      expect(first.state.runs.get(first.runId)?.status).toBe("completed");
      const childId = await firstChild(h, threadId);

      // E8: after a restart the child thread and its link come back from the log.
      await h.restart();
      expect((await childShells(h, threadId)).map((c) => c.id)).toEqual([childId]);
      const before = await h.thread(childId);
      expect([...before.runs.values()].map((r) => r.status)).toEqual(["completed"]);
      expect(itemSummaries(before)).toContain("assistant_message: CHILD-ONE-REPORT");

      // Promoted: its own row in the list, not under the parent; the same command id answers once.
      const promoted = await h.orchestrator.promote({ threadId: childId, commandId: "cmd_promote" });
      expect(await h.orchestrator.promote({ threadId: childId, commandId: "cmd_promote" })).toEqual(
        promoted,
      );
      expect(await childShells(h, threadId)).toEqual([]);
      const { threads } = await createReadModels(h.store).shells();
      expect(threads.find((t) => t.id === childId)?.lineage).toMatchObject({
        parentThreadId: null,
        relationshipToParent: null,
      });

      // A message continues it: the model request carries the sub-agent's earlier work.
      h.anthropic.enqueue(anthropicTextReply("PROMOTED-REPLY"));
      const continued = await h.send(childId, "PERSON-TO-PROMOTED: go on");
      expect([...continued.state.runs.values()].map((r) => r.status)).toEqual([
        "completed",
        "completed",
      ]);
      const request = JSON.stringify(h.claudeRequests().at(-1)?.body);
      expect(request).toContain("PERSON-TO-PROMOTED: go on");
      expect(request).toContain("CHILD-ONE-REPORT");
      expect(itemSummaries(continued.state)).toContain("assistant_message: PROMOTED-REPLY");

      // The parent's next sub-agent gets a new child thread; the parent's interrupt stops that
      // one and leaves the promoted thread alone.
      h.anthropic.enqueue(
        anthropicTaskReply("TASK-THREE: write three.txt", { description: "writer" }),
        anthropicTextReply("PARENT-THREE"),
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
      await h.orchestrator.interrupt({ threadId });
      await h.orchestrator.waitForRun(third);
      await eventually(async () => {
        const runs = [...(await h!.thread(newChildId)).runs.values()];
        expect(runs.map((r) => r.status)).toEqual(["interrupted"]);
      }, 30_000);
      const own = await h.thread(childId);
      expect([...own.runs.values()].map((r) => r.status)).toEqual(["completed", "completed"]);
      expect(own.activeRunId).toBeNull();
      expect(itemSummaries(own).join("\n")).not.toContain("TASK-THREE");
    },
    SLOW,
  );
});
