import type { RunId, ThreadId, TurnItem } from "@skein/domain";
import {
  anthropicRequestText,
  anthropicTextReply,
  conversationText,
  responsesTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { type CodexSkeinHarness, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

// Real binaries, real store: generous per-test budget for a loaded 2-core machine.
const SLOW = 90_000;

const openCodex = useCodexSkeinHarness();
const openClaude = useClaudeSkeinHarness();

type Store = CodexSkeinHarness["store"];

async function compactionItems(store: Store, threadId: ThreadId, runId: RunId) {
  const { turnItems, runs } = await createReadModels(store).detail(threadId);
  const run = runs.find((r) => r.id === runId);
  const items = turnItems.filter(
    (i): i is Extract<TurnItem, { type: "compaction" }> =>
      i.type === "compaction" && i.runId === runId,
  );
  return { run, items };
}

describe("thread.compact through Skein", () => {
  it(
    "P6/E3 Codex: thread/compact/start goes to Codex, the model gets the compaction request, a compaction item completes; the compaction run is no turn of the conversation",
    async () => {
      const codex = await openCodex();
      const x = codex;
      x.server.enqueue(responsesTextReply("FIRST-ANSWER"), responsesTextReply("THE-SUMMARY"));
      const threadId = await x.createThread();
      await expect(x.orchestrator.compact({ threadId })).rejects.toMatchObject({
        code: "precondition_failed",
      });
      await x.run(threadId, "FIRST-Q");

      const { runId } = await x.orchestrator.compact({ threadId });
      await x.orchestrator.waitForRun(runId);

      expect(x.sent("thread/compact/start")).toHaveLength(1);
      expect(x.sent("turn/start")).toHaveLength(1);
      const asked = conversationText(x.server.requests[1] ?? { input: [] });
      expect(asked).toContain("FIRST-Q");
      expect(asked).toContain("FIRST-ANSWER");
      const { run, items } = await compactionItems(x.store, threadId, runId);
      expect(run).toMatchObject({ status: "completed", compact: true });
      expect(items).toMatchObject([{ status: "completed", title: "Compacted context" }]);
      // E3: two runs in the graph, one turn in the thread's count.
      const detail = await createReadModels(x.store).detail(threadId);
      expect(detail.runs).toHaveLength(2);
      expect(detail.thread.runCount).toBe(1);
    },
    SLOW,
  );

  it(
    "P6 Claude: /compact goes to Claude Code, the model is asked for a summary, the compact boundary is a compaction item",
    async () => {
      const claude = await openClaude();
      const x = claude;
      x.anthropic.enqueue(
        anthropicTextReply("FIRST-ANSWER"),
        anthropicTextReply("<analysis>a</analysis><summary>THE-SUMMARY</summary>"),
      );
      const threadId = await x.createThread();
      await x.send(threadId, "FIRST-Q");
      const before = x.anthropic.requests.length;

      const { runId } = await x.orchestrator.compact({ threadId });
      await x.orchestrator.waitForRun(runId);

      const asked = x.anthropic.requests
        .slice(before)
        .map(anthropicRequestText)
        .filter((text) => text.includes("<summary>"));
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain("FIRST-Q");
      expect(asked[0]).toContain("FIRST-ANSWER");
      const { run, items } = await compactionItems(x.store, threadId, runId);
      expect(run).toMatchObject({ status: "completed", compact: true });
      expect(items).toMatchObject([{ status: "completed", title: "Compacted context" }]);
    },
    SLOW,
  );
});
