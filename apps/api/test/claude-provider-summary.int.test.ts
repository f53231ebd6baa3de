import { anthropicErrorReply, anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import {
  askProviderToWrite,
  expectFallback,
  expectWrittenBy,
  lastContextText,
  PROVIDER_SUMMARY,
  SUMMARY_PROMPT_START,
} from "./support/provider-summary.ts";

describe("provider-written handoffs on the real Claude Agent SDK (issue 25 item 3)", () => {
  const harness = useClaudeSkeinHarness();

  /** A Claude thread with two runs and a fork of it, not yet run. */
  async function forked() {
    const x = await harness({ codex: "scripted" });
    x.anthropic.enqueue(anthropicTextReply("Falcon noted."), anthropicTextReply("Keys noted."));
    const threadId = await x.createThread({ provider: "claude" });
    await x.send(threadId, "We'll use falcon-q for the job queue.");
    await x.send(threadId, "Remember to rotate the signing keys.");
    const fork = await x.orchestrator.forkThread({ threadId });
    return { x, threadId, fork: fork.threadId as ThreadId, transferId: fork.transferId };
  }

  it("B13/T11: Claude writes the handoff on a side turn of a native fork; the source session is untouched and the fork's run sends that text", async () => {
    const { x, threadId, fork, transferId } = await forked();
    x.anthropic.enqueue(anthropicTextReply(PROVIDER_SUMMARY));
    const handoff = await askProviderToWrite(x, fork, transferId, "codex");
    expectWrittenBy(handoff, "claude");
    const side = anthropicUserTexts(x.claudeRequests().at(-1)!).join("\n");
    expect(side).toContain("We'll use falcon-q");
    expect(side).toContain(SUMMARY_PROMPT_START);

    // The source session goes on without the side turn in its history.
    x.anthropic.enqueue(anthropicTextReply("source goes on"));
    await x.send(threadId, "And on.");
    const next = JSON.stringify(x.claudeRequests().at(-1));
    expect(next).not.toContain(SUMMARY_PROMPT_START);
    expect(next).toContain("Remember to rotate the signing keys.");

    x.scriptedCodex!.enqueue([{ type: "text", text: "continuing" }]);
    await x.send(fork, "Continue.", { provider: "codex" });
    expect(lastContextText(x.scriptedCodex!.calls)).toBe(handoff.summaryText);
  });

  it("B13: a model error on Claude's side turn falls back to Skein's handoff, with the reason recorded", async () => {
    const { x, fork, transferId } = await forked();
    x.anthropic.enqueue(anthropicErrorReply(500, "summary model on fire", { shouldRetry: false }));
    const handoff = await askProviderToWrite(x, fork, transferId, "codex");
    expectFallback(handoff, "claude", /failed.*summary model on fire/);
  });
});
