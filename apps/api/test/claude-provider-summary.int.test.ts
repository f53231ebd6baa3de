import { anthropicErrorReply, anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";

let h: ClaudeSkeinHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const PROMPT_START = "Write a handoff of this conversation";
const SUMMARY = [
  "## Goal",
  "Ship the job queue (run 1)",
  "## Decisions in force",
  "- falcon-q for the job queue (run 1)",
  "## Open tasks",
  "- rotate the signing keys (run 2)",
].join("\n");

/** A Claude thread with two runs and a fork of it, not yet run. */
async function forked(x: ClaudeSkeinHarness) {
  x.anthropic.enqueue(anthropicTextReply("Falcon noted."), anthropicTextReply("Keys noted."));
  const threadId = await x.createThread({ provider: "claude" });
  await x.send(threadId, "We'll use falcon-q for the job queue.");
  await x.send(threadId, "Remember to rotate the signing keys.");
  const fork = await x.orchestrator.forkThread({ threadId });
  return { threadId, fork: fork.threadId as ThreadId, transferId: fork.transferId };
}

describe("provider-written handoffs on the real Claude Agent SDK (issue 25 item 3)", () => {
  it("B13/T11: Claude writes the handoff on a side turn of a native fork; the source session is untouched and the fork's run sends that text", async () => {
    h = await createClaudeSkeinHarness({ codex: "scripted" });
    const { threadId, fork, transferId } = await forked(h);
    h.anthropic.enqueue(anthropicTextReply(SUMMARY));
    const { handoffId } = await h.orchestrator.regenerateHandoff({
      transferId,
      provider: "codex",
      writer: "provider",
    });
    const handoff = (await h.thread(fork)).handoffs.get(handoffId as never)!;
    expect(handoff.payload.authorship).toEqual({
      by: "provider",
      provider: "claude",
      fallbackReason: null,
    });
    expect(handoff.summaryText).toMatch(
      /^# Context handoff\nWritten by claude from its own thread/,
    );
    expect(handoff.summaryText).toContain(SUMMARY);
    const side = h.claudeRequests().at(-1)!;
    const sideTexts = anthropicUserTexts(side).join("\n");
    expect(sideTexts).toContain("We'll use falcon-q");
    expect(sideTexts).toContain(PROMPT_START);

    // The source session goes on without the side turn in its history.
    h.anthropic.enqueue(anthropicTextReply("source goes on"));
    await h.send(threadId, "And on.");
    const next = JSON.stringify(h.claudeRequests().at(-1));
    expect(next).not.toContain(PROMPT_START);
    expect(next).toContain("Remember to rotate the signing keys.");

    h.scriptedCodex!.enqueue([{ type: "text", text: "continuing" }]);
    await h.send(fork, "Continue.", { provider: "codex" });
    const turn = h.scriptedCodex!.calls.filter((c) => c.op === "startTurn").at(-1);
    const args = turn?.args as { input: { context?: { text: string } | null } } | undefined;
    expect(args?.input.context?.text).toBe(handoff.summaryText);
  });

  it("B13: a model error on Claude's side turn falls back to Skein's handoff, with the reason recorded", async () => {
    h = await createClaudeSkeinHarness({ codex: "scripted" });
    const { fork, transferId } = await forked(h);
    h.anthropic.enqueue(anthropicErrorReply(500, "summary model on fire", { shouldRetry: false }));
    const { handoffId } = await h.orchestrator.regenerateHandoff({
      transferId,
      provider: "codex",
      writer: "provider",
    });
    const handoff = (await h.thread(fork)).handoffs.get(handoffId as never)!;
    expect(handoff.payload.authorship).toMatchObject({ by: "skein", provider: "claude" });
    expect(handoff.payload.authorship?.fallbackReason).toMatch(/failed.*summary model on fire/);
    expect(handoff.summaryText).toMatch(/^# Context handoff\nContext carried over/);
    expect(handoff.summaryText).toContain(
      "We'll use falcon-q for the job queue. (run 1, the person)",
    );
  });
});
