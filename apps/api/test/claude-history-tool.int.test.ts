import {
  anthropicTextReply,
  anthropicToolResults,
  anthropicToolUseReply,
  anthropicUserTexts,
} from "@skein/fake-models";
import { estimateTokens, HISTORY_ANSWER_TOKENS } from "@skein/transfer";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

const TOOL = "mcp__skein__skein_history";

describe("skein_history on the real Claude Agent SDK (issue 25)", () => {
  const harness = useClaudeSkeinHarness();

  it("B13: after a switch to Claude, the model reads the handed-over runs; out-of-coverage and bad calls are tool errors and the run completes", async () => {
    const h = await harness({ codex: "scripted" });
    h.scriptedCodex!.enqueue([{ type: "text", text: "Falcon it is." }]);
    h.scriptedCodex!.enqueue([{ type: "text", text: "Keys noted." }]);
    h.anthropic.enqueue(
      anthropicToolUseReply(TOOL, { op: "read", run: 1 }, { id: "toolu_r1" }),
      anthropicToolUseReply(TOOL, { op: "read", run: 7 }, { id: "toolu_r7" }),
      anthropicToolUseReply(TOOL, { op: "search" }, { id: "toolu_bad" }),
      anthropicTextReply("done reading"),
    );
    const threadId = await h.createThread({ provider: "codex" });
    await h.send(threadId, "We decided to use falcon-q for the job queue.", { provider: "codex" });
    await h.send(threadId, "Remember to rotate the signing keys before launch.", {
      provider: "codex",
    });
    const { runId, state } = await h.send(threadId, "Carry on.", { provider: "claude" });
    expect(state.runs.get(runId)?.status).toBe("completed");

    const requests = h.claudeRequests();
    const [handoff] = anthropicUserTexts(requests[0]!);
    expect(handoff).toContain("skein_history");
    const results = anthropicToolResults(requests.at(-1)!);
    expect(results.map((r) => [r.toolUseId, r.isError])).toEqual([
      ["toolu_r1", false],
      ["toolu_r7", true],
      ["toolu_bad", true],
    ]);
    const [read, outside, bad] = results.map((r) => r.text);
    expect(read).toMatch(/^run 1 · codex · completed\n\[the person\] We decided to use falcon-q/);
    expect(read).toContain("[agent] Falcon it is.");
    expect(estimateTokens(read ?? "")).toBeLessThanOrEqual(HISTORY_ANSWER_TOKENS);
    expect(outside).toContain("run 7 is not covered by this handoff (covered: runs 1–2)");
    expect(bad).toContain("search needs a non-empty query");

    const calls = [...state.turnItems.values()]
      .map((e) => e.item)
      .filter((i) => i.type === "dynamic_tool" && i.toolName === "skein_history");
    expect(calls.map((c) => c.status)).toEqual(["completed", "failed", "failed"]);
  });
});
