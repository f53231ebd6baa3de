import { execCommandReply, responsesTextReply, spawnAgentReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import {
  childShells,
  expectInterruptSparesPromoted,
  expectPromoted,
  firstChild,
  helperAgent,
  itemSummaries,
  pendingRequestOf,
} from "./support/subagent-children.ts";

const SLOW = 120_000;
const { parent, child } = helperAgent;
const collab = (name: string, args: unknown) => ({
  kind: "response" as const,
  items: [{ type: "function_call" as const, name, namespace: "collaboration", arguments: args }],
  when: parent,
});
const waitAgent = collab("wait_agent", { timeout_ms: 60_000 });
const followUp = (message: string) => collab("followup_task", { target: "helper", message });

describe("Codex sub-agents: the child thread outlives a restart and can be promoted (real app-server)", () => {
  const harness = useCodexSkeinHarness();

  it(
    "T9, E8, E9: after a restart the sub-agent's next turn lands in the same child thread; promoted, the child is a thread of its own that continues with its history and no longer stops with its parent",
    async () => {
      const x = await harness({ features: { multi_agent_v2: true } });
      x.server.enqueue(
        { ...spawnAgentReply("helper", "CHILD-TASK: say hi", "call_spawn"), when: parent },
        { ...responsesTextReply("CHILD-ONE"), when: child },
        waitAgent,
        { ...responsesTextReply("PARENT-ONE"), when: parent },
      );
      const threadId = await x.createThread({ runtimeMode: "approval-required" });
      expect((await x.run(threadId, "delegate to a helper")).run.status).toBe("completed");
      const childId = await firstChild(x, threadId);

      // E8: the link from the sub-agent to its child thread comes from the log, not memory.
      await x.restart();
      x.server.enqueue(
        followUp("TASK-TWO: say more"),
        { ...responsesTextReply("CHILD-TWO"), when: child },
        waitAgent,
        { ...responsesTextReply("PARENT-TWO"), when: parent },
      );
      expect((await x.run(threadId, "ask the helper again")).run.status).toBe("completed");
      expect((await childShells(x, threadId)).map((c) => c.id)).toEqual([childId]);
      const again = await x.thread(childId);
      expect([...again.runs.values()].map((r) => r.status)).toEqual(["completed", "completed"]);
      expect(itemSummaries(again)).toContain("assistant_message: CHILD-TWO");

      // Promoted: its own row in the list, not under the parent; the same command id answers once.
      await expectPromoted(x, threadId, childId);

      // A message continues it: the model request carries the child's history.
      x.server.enqueue({ ...responsesTextReply("PROMOTED-REPLY"), when: () => true });
      const continued = await x.run(childId, "PERSON-TO-PROMOTED: go on");
      expect(continued.run.status).toBe("completed");
      const input = JSON.stringify(x.request(-1).input);
      expect(input).toContain("PERSON-TO-PROMOTED: go on");
      expect(input).toContain("CHILD-ONE");
      expect(input).toContain("CHILD-TWO");

      // The sub-agent's later work goes to a new child thread; the parent's interrupt stops that
      // one and leaves the promoted thread alone.
      x.server.enqueue(
        followUp("TASK-THREE: write three.txt"),
        { ...execCommandReply("echo three > three.txt"), when: child },
        waitAgent,
        { ...responsesTextReply("PARENT-THREE"), when: parent },
      );
      const third = await x.send(threadId, "and once more");
      const newChildId = await firstChild(x, threadId);
      expect(newChildId).not.toBe(childId);
      await pendingRequestOf(x, newChildId);
      await expectInterruptSparesPromoted(
        x,
        { threadId, runId: third },
        { newChildId, promotedId: childId, task: "TASK-THREE" },
      );
    },
    SLOW,
  );
});
