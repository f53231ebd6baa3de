import type { RuntimeRequest, ThreadId, ThreadShell, ThreadState } from "@skein/domain";
import {
  execCommandReply,
  forAgent,
  notForAgent,
  responsesTextReply,
  spawnAgentReply,
} from "@skein/fake-models";
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
