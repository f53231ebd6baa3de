import { describe, expect, it } from "vitest";
import { addTokenUsage, type TokenUsage } from "../entities/common.ts";
import { detailFromRows, incrementalRows } from "../testing/rows.ts";
import { ThreadScenario } from "../testing/scenario.ts";

function runWithUsage(
  s: ThreadScenario,
  text: string,
  usage: TokenUsage | null,
  status: "completed" | "failed" = "completed",
) {
  const runId = s.queue(text);
  const { providerTurnId } = s.start(runId);
  s.say(providerTurnId, `reply to ${text}`);
  s.exec({
    type: "CompleteProviderTurn",
    data: {
      threadId: s.threadId,
      providerTurnId,
      status,
      ...(status === "failed" ? { error: "HTTP 500" } : {}),
      usage,
    },
  });
  return runId;
}

describe("usage: runs and the thread total", () => {
  it("a turn's usage lands on its run and on the thread shell; a run without usage has none", () => {
    const s = new ThreadScenario().create();
    const first = runWithUsage(s, "one", { inputTokens: 100, outputTokens: 20, costUsd: 0.25 });
    const failed = runWithUsage(s, "two", { inputTokens: 30, outputTokens: 4 }, "failed");
    const silent = runWithUsage(s, "three", null);

    const detail = detailFromRows(incrementalRows(s.events), s.threadId);
    const byId = new Map(detail.runs.map((run) => [run.id, run]));
    expect(byId.get(first)?.usage).toEqual({ inputTokens: 100, outputTokens: 20, costUsd: 0.25 });
    // A failed turn still spent its tokens.
    expect(byId.get(failed)?.usage).toEqual({ inputTokens: 30, outputTokens: 4 });
    expect(byId.get(silent)?.usage).toBeUndefined();
    expect(detail.thread.usage).toEqual({ inputTokens: 130, outputTokens: 24, costUsd: 0.25 });
  });

  it("a thread with no reported usage shows none", () => {
    const s = new ThreadScenario().create();
    runWithUsage(s, "one", null);
    expect(detailFromRows(incrementalRows(s.events), s.threadId).thread.usage).toBeNull();
  });

  it("addTokenUsage keeps optional figures absent unless one side reports them", () => {
    expect(
      addTokenUsage(
        { inputTokens: 1, outputTokens: 2 },
        { inputTokens: 3, outputTokens: 4, cachedInputTokens: 5 },
      ),
    ).toEqual({ inputTokens: 4, outputTokens: 6, cachedInputTokens: 5 });
    expect(addTokenUsage(null, { inputTokens: 1, outputTokens: 1 })).toEqual({
      inputTokens: 1,
      outputTokens: 1,
    });
  });

  it("addTokenUsage keeps the latest context reading (issue 29 meter), never a sum", () => {
    const earlier = { inputTokens: 10, outputTokens: 1, contextTokens: 11, contextWindow: 1000 };
    const later = { inputTokens: 20, outputTokens: 2, contextTokens: 33, contextWindow: 1000 };
    expect(addTokenUsage(earlier, later)).toEqual({
      inputTokens: 30,
      outputTokens: 3,
      contextTokens: 33,
      contextWindow: 1000,
    });
    // A later turn that reports no context keeps the last reading.
    expect(addTokenUsage(later, { inputTokens: 1, outputTokens: 1 })).toMatchObject({
      contextTokens: 33,
      contextWindow: 1000,
    });
  });
});
