import type { Orchestrator } from "../src/orchestrator/index.ts";
import type { EventStore } from "@skein/db";
import type { ThreadId, ThreadState } from "@skein/domain";
import {
  anthropicSlowTextReply,
  anthropicTextReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { createClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { createCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { until } from "./support/until.ts";

type Item = { type: string; runOrdinal: number | null; text?: string };

/** One entry per run header the UI draws: neighbouring items of the same run fold into one. */
function runBlocks(items: readonly Item[]): Array<number | null> {
  const blocks: Array<number | null> = [];
  for (const item of items) if (blocks.at(-1) !== item.runOrdinal) blocks.push(item.runOrdinal);
  return blocks;
}

function texts(items: readonly Item[]): string[] {
  return items.flatMap((item) =>
    item.type === "user_message" || item.type === "assistant_message" ? [item.text ?? ""] : [],
  );
}

/** What both real runtimes offer this test: a thread whose first answer streams slowly. */
type Runtime = {
  store: EventStore;
  orchestrator: Orchestrator;
  thread(threadId: ThreadId): Promise<ThreadState>;
  threadId: ThreadId;
  /** The fake model has the first run's request (so that run is under way). */
  asked(): boolean;
  close(): Promise<void>;
};

const FIRST = "slow first answer arrives bit by bit";

const runtimes: Record<"codex" | "claude", () => Promise<Runtime>> = {
  async codex() {
    const x = await createCodexSkeinHarness();
    x.server.enqueue(
      responsesSlowTextReply(FIRST.split(/(?<= )/), 300),
      responsesTextReply("second answer"),
    );
    const threadId = await x.createThread();
    const asked = () => x.server.requests.length > 0;
    return { ...x, orchestrator: x.orchestrator, thread: x.thread, threadId, asked };
  },
  async claude() {
    const x = await createClaudeSkeinHarness();
    x.anthropic.enqueue(
      anthropicSlowTextReply(FIRST, 20, { headerDelayMs: 1_500 }),
      anthropicTextReply("second answer"),
    );
    const threadId = await x.createThread({ runtimeMode: "full-access" });
    const asked = () => x.claudeRequests().length > 0;
    return { ...x, orchestrator: x.orchestrator, thread: x.thread, threadId, asked };
  },
};

let open: Runtime | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
});

describe("a message queued behind a running run, on the real runtimes (issue 13 item 5)", () => {
  for (const provider of ["codex", "claude"] as const) {
    it(`P6: on ${provider}, projects as one run header per run, items in order, also on a fresh read`, async () => {
      const x = await runtimes[provider]();
      open = x;
      const { threadId } = x;
      const reads = createReadModels(x.store);
      const { runId: first } = await x.orchestrator.sendMessage({ threadId, text: "first" });
      // Run 1 is under way, its answer not yet begun, when message 2 arrives: the answer's items
      // are added after the queued message's, and must still show under run 1.
      await until(
        async () => x.asked(),
        (asked) => asked,
        30_000,
      );
      const { runId: second } = await x.orchestrator.sendMessage({ threadId, text: "second" });
      const queued = await reads.detail(threadId);
      expect(queued.runs.map((r) => r.status)).toEqual(["running", "queued"]);
      expect(runBlocks(queued.turnItems)).toEqual([1, 2]);

      await x.orchestrator.waitForRun(first);
      await x.orchestrator.waitForRun(second);
      const done = await reads.detail(threadId);
      expect(done.runs.map((r) => r.status)).toEqual(["completed", "completed"]);
      expect(texts(done.turnItems)).toEqual(["first", FIRST, "second", "second answer"]);
      expect(runBlocks(done.turnItems)).toEqual([1, 2]);

      // What a reload reads: the stored rows, ordered by the store alone.
      const stored = await x.store.snapshot((q) => q.list("turn_items", { threadId }));
      const byKey = [...stored.data]
        .sort((a, b) => a.sortKey - b.sortKey)
        .map((row) => row.data as Item);
      expect(texts(byKey)).toEqual(["first", FIRST, "second", "second answer"]);
      expect(runBlocks(byKey)).toEqual([1, 2]);
    }, 60_000);
  }
});
