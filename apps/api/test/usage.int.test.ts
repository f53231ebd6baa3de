import type { ThreadId } from "@skein/domain";
import { anthropicTextReply, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { createReadModels } from "../src/read-models/index.ts";
import { readUsageSummary } from "../src/read-models/usage-summary.ts";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { type CodexSkeinHarness, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

// Real binaries, real store: generous per-test budget for a loaded 2-core machine.
const SLOW = 90_000;

const openCodex = useCodexSkeinHarness();
const openClaude = useClaudeSkeinHarness();

async function detail(store: CodexSkeinHarness["store"], threadId: ThreadId) {
  return createReadModels(store).detail(threadId);
}

describe("usage through Skein: thread.detail runs and the thread total", () => {
  it(
    "Codex: each run carries the tokens the model reported; the thread sums them",
    async () => {
      const codex = await openCodex();
      const x = codex;
      x.server.enqueue(
        responsesTextReply("one", { usage: { inputTokens: 100, outputTokens: 20 } }),
        responsesTextReply("two", {
          usage: {
            inputTokens: 300,
            cachedInputTokens: 50,
            outputTokens: 7,
            reasoningOutputTokens: 3,
          },
        }),
      );
      const threadId = await x.createThread();
      await x.run(threadId, "first");
      await x.run(threadId, "second");

      const { runs, thread } = await detail(x.store, threadId);
      // Issue 29: with the context its latest response filled and the window's size (Codex's).
      const window = { contextWindow: expect.any(Number) };
      expect(runs.map((run) => run.usage)).toEqual([
        {
          inputTokens: 100,
          outputTokens: 20,
          cachedInputTokens: 0,
          reasoningTokens: 0,
          contextTokens: 120,
          ...window,
        },
        {
          inputTokens: 300,
          outputTokens: 7,
          cachedInputTokens: 50,
          reasoningTokens: 3,
          contextTokens: 307,
          ...window,
        },
      ]);
      expect(runs[1]?.usage?.contextWindow).toBeGreaterThan(307);
      // Codex reports no cost, so none is shown; the context is the latest reading, not a sum.
      expect(thread.usage).toEqual({
        inputTokens: 400,
        outputTokens: 27,
        cachedInputTokens: 50,
        reasoningTokens: 3,
        contextTokens: 307,
        ...window,
      });
    },
    SLOW,
  );

  it(
    "Claude: each run carries its tokens, its own cost and the context it filled; the thread sums them",
    async () => {
      const claude = await openClaude();
      const x = claude;
      x.anthropic.enqueue(
        anthropicTextReply("one", { usage: { inputTokens: 1000, outputTokens: 100 } }),
        anthropicTextReply("two", { usage: { inputTokens: 2000, outputTokens: 200 } }),
      );
      const threadId = await x.createThread();
      await x.send(threadId, "first");
      await x.send(threadId, "second");

      const { runs, thread } = await detail(x.store, threadId);
      const [first, second] = runs.map((run) => run.usage);
      expect(first).toMatchObject({ inputTokens: 1000, outputTokens: 100 });
      expect(second).toMatchObject({ inputTokens: 2000, outputTokens: 200 });
      // Twice the tokens on the same model and process: twice the cost, not the running total.
      expect(first?.costUsd).toBeGreaterThan(0);
      expect(second?.costUsd).toBeCloseTo((first?.costUsd ?? 0) * 2, 10);
      expect(thread.usage).toMatchObject({ inputTokens: 3000, outputTokens: 300 });
      expect(thread.usage?.costUsd).toBeCloseTo((first?.costUsd ?? 0) * 3, 10);
      // Issue 29's meter on Claude: the latest response's fill, in the model's window.
      expect(second?.contextTokens).toBe(2200);
      expect(second?.contextWindow).toBeGreaterThan(2200);
      expect(thread.usage?.contextTokens).toBe(2200);
    },
    SLOW,
  );

  it(
    "B20: the usage view sums each provider's recorded tokens per thread and day; other days stay out",
    async () => {
      const x = await openCodex();
      x.server.enqueue(
        responsesTextReply("one", { usage: { inputTokens: 100, outputTokens: 20 } }),
        responsesTextReply("two", { usage: { inputTokens: 5, outputTokens: 1 } }),
        responsesTextReply("three", { usage: { inputTokens: 40, outputTokens: 2 } }),
      );
      const a = await x.createThread();
      const b = await x.createThread();
      await x.run(a, "first");
      await x.run(a, "second");
      await x.run(b, "third");
      const now = new Date();
      const { data } = await x.store.snapshot((q) => readUsageSummary(q, 1, now));
      const day = now.toISOString().slice(0, 10);
      const rows = data.rows.map((r) => [
        r.provider,
        r.day,
        r.threadId,
        r.runs,
        r.usage.inputTokens,
      ]);
      expect(rows).toEqual(
        expect.arrayContaining([
          ["codex", day, a, 2, 105],
          ["codex", day, b, 1, 40],
        ]),
      );
      expect(rows).toHaveLength(2);
      expect(data.totals).toEqual([
        {
          provider: "codex",
          runs: 3,
          usage: expect.objectContaining({ inputTokens: 145, outputTokens: 23 }),
        },
      ]);
      // Tomorrow's one-day view no longer holds today's runs.
      const tomorrow = new Date(now.getTime() + 86_400_000);
      const later = await x.store.snapshot((q) => readUsageSummary(q, 1, tomorrow));
      expect(later.data.rows).toEqual([]);
    },
    SLOW,
  );
});
