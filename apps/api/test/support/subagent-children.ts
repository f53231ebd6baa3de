import type { RunId, RuntimeRequest, ThreadId, ThreadShell, ThreadState } from "@skein/domain";
import {
  execCommandReply,
  forAgent,
  notForAgent,
  responsesTextReply,
  spawnAgentReply,
} from "@skein/fake-models";
import { expect } from "vitest";
import type { Orchestrator } from "../../src/orchestrator/index.ts";
import { createReadModels } from "../../src/read-models/index.ts";
import { eventually } from "./orchestrator-harness.ts";

type Reads = {
  store: Parameters<typeof createReadModels>[0];
  thread(threadId: ThreadId): Promise<ThreadState>;
};

/** The sidebar rows (P1) of the threads listed under `parentThreadId` as its sub-agents (T9). */
export async function childShells(x: Reads, parentThreadId: ThreadId): Promise<ThreadShell[]> {
  const { threads } = await createReadModels(x.store).shells();
  return threads.filter((t) => t.lineage?.parentThreadId === parentThreadId);
}

/**
 * E9: promotes the child thread (twice under one command id, which answers once) and checks that
 * it left its parent's list and no longer names a parent.
 */
export async function expectPromoted(
  x: Reads & { orchestrator: Pick<Orchestrator, "promote"> },
  parentThreadId: ThreadId,
  childId: ThreadId,
): Promise<void> {
  const promote = { threadId: childId, commandId: "cmd_promote" };
  const promoted = await x.orchestrator.promote(promote);
  expect(await x.orchestrator.promote(promote)).toEqual(promoted);
  expect(await childShells(x, parentThreadId)).toEqual([]);
  const { threads } = await createReadModels(x.store).shells();
  expect(threads.find((t) => t.id === childId)?.lineage).toMatchObject({
    parentThreadId: null,
    relationshipToParent: null,
  });
}

/**
 * E9: the parent's interrupt stops the run its new child thread (`newChildId`) got for `task`
 * and leaves the promoted thread alone: its three runs completed, nothing of `task` in it.
 * Returns the promoted thread's state.
 */
export async function expectInterruptSparesPromoted(
  x: Reads & { orchestrator: Pick<Orchestrator, "interrupt" | "waitForRun"> },
  parent: { threadId: ThreadId; runId: RunId },
  children: { newChildId: ThreadId; promotedId: ThreadId; task: string },
): Promise<ThreadState> {
  await x.orchestrator.interrupt({ threadId: parent.threadId });
  await x.orchestrator.waitForRun(parent.runId);
  await eventually(async () => {
    const runs = [...(await x.thread(children.newChildId)).runs.values()];
    expect(runs.map((r) => r.status)).toEqual(["interrupted"]);
  }, 30_000);
  const own = await x.thread(children.promotedId);
  expect([...own.runs.values()].map((r) => r.status)).toEqual([
    "completed",
    "completed",
    "completed",
  ]);
  expect(itemSummaries(own).join("\n")).not.toContain(children.task);
  return own;
}

/** Waits for the parent's first sub-agent child thread to appear; returns its id. */
export function firstChild(x: Reads, parentThreadId: ThreadId, timeoutMs = 60_000) {
  return eventually(async () => {
    const [child] = await childShells(x, parentThreadId);
    if (!child) throw new Error("no sub-agent child thread yet");
    return child.id;
  }, timeoutMs);
}

/** Waits for a pending runtime request on the thread. */
export function pendingRequestOf(x: Reads, threadId: ThreadId, timeoutMs = 30_000) {
  return eventually(async (): Promise<RuntimeRequest> => {
    const state = await x.thread(threadId);
    const pending = [...state.requests.values()].find((r) => r.status === "pending");
    if (!pending) throw new Error("no pending request yet");
    return pending;
  }, timeoutMs);
}

/** The thread's turn items in display order, as type + text/input for compact assertions. */
export function itemSummaries(state: ThreadState): string[] {
  return [...state.turnItems.values()]
    .sort((a, b) => a.sortKey - b.sortKey)
    .map(({ item }) => {
      if (item.type === "assistant_message" || item.type === "user_message") {
        return `${item.type}: ${item.text}`;
      }
      if (item.type === "command_execution") return `${item.type}: ${item.input}`;
      if (item.type === "dynamic_tool") return `${item.type}: ${item.toolName}`;
      return item.type;
    });
}

/**
 * Codex sub-agent tests spawn one agent named "helper": `parent` matches the model requests of the
 * parent thread, `child` those of the helper, so each reply goes to the right conversation.
 */
export const helperAgent = { parent: notForAgent("helper"), child: forAgent("helper") };

/** The parent's model waits for its helper (Codex's `wait_agent`, up to a minute). */
export const waitForHelper = {
  kind: "response" as const,
  items: [
    {
      type: "function_call" as const,
      name: "wait_agent",
      namespace: "collaboration",
      arguments: { timeout_ms: 60_000 },
    },
  ],
  when: helperAgent.parent,
};

/**
 * The model's script while a parent hands `task` to its helper: the helper runs `command` and
 * answers CHILD-DONE while the parent waits for it. The parent's own replies after the wait are
 * the caller's to add.
 */
export function helperRunsCommand(task: string, command: string) {
  return [
    { ...spawnAgentReply("helper", task, "call_spawn"), when: helperAgent.parent },
    { ...execCommandReply(command), when: helperAgent.child },
    waitForHelper,
    { ...responsesTextReply("CHILD-DONE"), when: helperAgent.child },
  ];
}
