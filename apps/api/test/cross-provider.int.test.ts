import { anthropicTextReply, anthropicUserTexts, messageTexts } from "@skein/fake-models";
import { responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

const harness = useClaudeSkeinHarness();

describe("Codex ⇄ Claude on one thread, real runtimes on fake models", () => {
  it("T6/T7/E14: Codex runs 1–2, Claude run 3 gets a portable handoff of runs 1–2, Codex run 4 gets a delta of run 3 only", async () => {
    const h = await harness({ codex: "real" });
    const openai = h.openai!;
    openai.enqueue(
      responsesTextReply("codex answer one"),
      responsesTextReply("codex answer two"),
      responsesTextReply("codex answer four"),
    );
    h.anthropic.enqueue(anthropicTextReply("claude answer three"));
    const threadId = await h.createThread({ provider: "codex" });

    for (const text of ["message one", "message two"]) {
      const { runId, state } = await h.send(threadId, text, { provider: "codex" });
      expect(state.runs.get(runId)?.status).toBe("completed");
    }

    // Run 3 on Claude: the handoff is the first block of the user's turn in Claude's request.
    const three = await h.send(threadId, "message three", { provider: "claude" });
    const run3 = three.state.runs.get(three.runId)!;
    expect(run3.status).toBe("completed");
    const handoff3 = three.state.handoffs.get(run3.contextHandoffId!)!;
    expect(handoff3).toMatchObject({
      strategy: "full_thread_summary",
      coveredRunOrdinals: { from: 1, to: 2 },
    });
    const [claudeRequest] = h.claudeRequests();
    const [sentHandoff, sentMessage] = anthropicUserTexts(claudeRequest!);
    expect(sentHandoff).toBe(handoff3.summaryText);
    for (const part of ["message one", "codex answer one", "message two", "codex answer two"]) {
      expect(sentHandoff).toContain(part);
    }
    expect(sentMessage).toBe("message three");

    // Run 4 back on Codex: same Codex thread, with a delta that covers run 3 only.
    const codexThreadBefore = [...three.state.providerThreads.values()].find(
      (p) => p.provider === "codex",
    )!;
    const four = await h.send(threadId, "message four", { provider: "codex" });
    const run4 = four.state.runs.get(four.runId)!;
    expect(run4.status).toBe("completed");
    expect(run4.providerThreadId).toBe(codexThreadBefore.id);
    const delta = four.state.handoffs.get(run4.contextHandoffId!)!;
    expect(delta).toMatchObject({
      strategy: "delta_since_target_last_seen",
      coveredRunOrdinals: { from: 3, to: 3 },
    });
    const codexRequest = openai.requests.at(-1)!;
    const userTexts = messageTexts(codexRequest, "user");
    const sentDelta = userTexts.find((t) => t === delta.summaryText);
    expect(sentDelta).toBeDefined();
    expect(sentDelta).toContain("message three");
    expect(sentDelta).toContain("claude answer three");
    expect(sentDelta).not.toContain("message one");
    expect(sentDelta).not.toContain("codex answer two");
    expect(userTexts.at(-1)).toBe("message four");
    // Codex kept its own history of runs 1–2 natively; the delta did not repeat it.
    expect(userTexts.filter((t) => t.includes("message one"))).toEqual(["message one"]);
  });
});
