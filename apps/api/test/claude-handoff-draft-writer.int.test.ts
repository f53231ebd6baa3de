import { anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import { PROVIDER_SUMMARY, SUMMARY_PROMPT_START } from "./support/provider-summary.ts";

/**
 * Issue 25 items 3 and 4 on the composer's review (`handoff.draft`): regenerating the reviewed
 * handoff follows the project's `handoffWriter` (it used to be Skein's always), a writer named
 * on the request wins, and a bring-back, which no single provider thread holds, shows Skein's
 * handoff with the reason it stands in. Real Claude Agent SDK against the fake Anthropic server.
 */
describe("the reviewed handoff follows the project's writer (real Claude)", () => {
  const harness = useClaudeSkeinHarness();

  async function claudeThreadInProviderProject() {
    const x = await harness({ codex: "scripted" });
    await x.orchestrator.updateProjectSettings({
      projectId: x.projectId,
      settings: { handoffWriter: "provider" },
    });
    x.anthropic.enqueue(anthropicTextReply("Falcon noted."));
    const threadId = await x.createThread({ provider: "claude" });
    await x.send(threadId, "We'll use falcon-q for the job queue.");
    return { x, threadId };
  }

  it("a 'provider' project's review of a switch shows Claude's own handoff; 'skein' named gets Skein's", async () => {
    const { x, threadId } = await claudeThreadInProviderProject();
    const before = x.claudeRequests().length;
    x.anthropic.enqueue(anthropicTextReply(PROVIDER_SUMMARY));
    const draft = await x.orchestrator.draftHandoff({ threadId, provider: "codex" });
    if (!draft.needed) throw new Error("a switch to Codex carries a handoff");
    expect(draft.payload.authorship).toEqual({
      by: "provider",
      provider: "claude",
      fallbackReason: null,
    });
    expect(draft.text).toContain(PROVIDER_SUMMARY);
    expect(anthropicUserTexts(x.claudeRequests().at(-1)!).join("\n")).toContain(
      SUMMARY_PROMPT_START,
    );
    expect(x.claudeRequests().length).toBe(before + 1);

    const skein = await x.orchestrator.draftHandoff({
      threadId,
      provider: "codex",
      writer: "skein",
    });
    if (!skein.needed) throw new Error("a switch to Codex carries a handoff");
    expect(skein.payload.authorship).toBeUndefined();
    expect(skein.text).toMatch(/^# Context handoff\nContext carried over/);
    expect(x.claudeRequests().length).toBe(before + 1);
    // A draft records nothing: the thread has no handoff and no transfer yet.
    const state = await x.thread(threadId);
    expect(state.handoffs.size).toBe(0);
    expect(state.transfers.size).toBe(0);
  });

  it("a bring-back's review in a 'provider' project shows Skein's handoff with the reason no provider wrote it", async () => {
    const { x, threadId } = await claudeThreadInProviderProject();
    const fork = (await x.orchestrator.forkThread({ threadId })).threadId as ThreadId;
    x.anthropic.enqueue(anthropicTextReply("Keys noted."));
    await x.send(fork, "Remember to rotate the signing keys.");
    const before = x.claudeRequests().length;
    const draft = await x.orchestrator.draftHandoff({
      threadId,
      provider: "codex",
      bringBackFrom: fork,
    });
    if (!draft.needed) throw new Error("a bring-back carries the fork's runs");
    expect(draft.transferType).toBe("merge_back");
    expect(draft.payload.authorship).toEqual({
      by: "skein",
      provider: null,
      fallbackReason: "no single provider thread holds every covered run (they ran on several)",
    });
    expect(draft.text).toContain("Remember to rotate the signing keys.");
    expect(x.claudeRequests().length).toBe(before);
  });
});
