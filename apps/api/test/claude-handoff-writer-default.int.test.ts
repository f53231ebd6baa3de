import { anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import type { ContextTransferId, ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";
import {
  expectWrittenBy,
  lastContextText,
  PROVIDER_SUMMARY,
  SUMMARY_PROMPT_START,
} from "./support/provider-summary.ts";

/**
 * Issue 25 item 3: the project's `handoffWriter` decides who writes a handoff when the request
 * names no writer (a preview, or a message sent with none); a writer named on the transfer wins. Real Claude Agent SDK against the
 * loopback fake Anthropic server; the preview targets the scripted Codex.
 */
describe("the project default for who writes handoffs (real Claude)", () => {
  const harness = useClaudeSkeinHarness();

  /** A Claude thread with two runs, in a project whose handoffs the provider writes, forked. */
  async function forkedInProviderProject() {
    const x = await harness({ codex: "scripted" });
    await x.orchestrator.updateProjectSettings({
      projectId: x.projectId,
      settings: { handoffWriter: "provider" },
    });
    x.anthropic.enqueue(anthropicTextReply("Falcon noted."), anthropicTextReply("Keys noted."));
    const threadId = await x.createThread({ provider: "claude" });
    await x.send(threadId, "We'll use falcon-q for the job queue.");
    await x.send(threadId, "Remember to rotate the signing keys.");
    const fork = await x.orchestrator.forkThread({ threadId });
    return { x, fork: fork.threadId as ThreadId, transferId: fork.transferId as ContextTransferId };
  }

  async function handoffOf(
    x: Awaited<ReturnType<typeof forkedInProviderProject>>["x"],
    fork: ThreadId,
    handoffId: string,
  ) {
    const handoff = (await x.thread(fork)).handoffs.get(handoffId as never);
    if (!handoff) throw new Error(`handoff ${handoffId} is not recorded`);
    return handoff;
  }

  it("a project set to 'provider' gets Claude's own handoff without the request naming a writer", async () => {
    const { x, fork, transferId } = await forkedInProviderProject();
    const before = x.claudeRequests().length;
    x.anthropic.enqueue(anthropicTextReply(PROVIDER_SUMMARY));
    const { handoffId } = await x.orchestrator.regenerateHandoff({ transferId, provider: "codex" });
    expectWrittenBy(await handoffOf(x, fork, handoffId), "claude");
    expect(x.claudeRequests().length).toBe(before + 1);
  });

  it("a writer named on the transfer ('skein') wins over the project's 'provider'", async () => {
    const { x, fork, transferId } = await forkedInProviderProject();
    const before = x.claudeRequests().length;
    const { handoffId } = await x.orchestrator.regenerateHandoff({
      transferId,
      provider: "codex",
      writer: "skein",
    });
    const handoff = await handoffOf(x, fork, handoffId);
    // Skein's builder records no authorship (a fallback would say `by: skein` with a reason).
    expect(handoff.payload.authorship).toBeUndefined();
    expect(handoff.summaryText).toMatch(/^# Context handoff\nContext carried over/);
    expect(handoff.summaryText).toContain("We'll use falcon-q for the job queue.");
    // Claude was asked nothing: no side turn ran.
    expect(x.claudeRequests().length).toBe(before);
  });

  it("a message sent on another provider with no preview carries Claude's handoff in a 'provider' project", async () => {
    const { x, fork, transferId } = await forkedInProviderProject();
    x.anthropic.enqueue(anthropicTextReply(PROVIDER_SUMMARY));
    x.scriptedCodex!.enqueue([{ type: "text", text: "continuing" }]);
    await x.send(fork, "Continue.", { provider: "codex" });
    const side = anthropicUserTexts(x.claudeRequests().at(-1)!).join("\n");
    expect(side).toContain(SUMMARY_PROMPT_START);
    const state = await x.thread(fork);
    const sent = [...state.handoffs.values()].find(
      (h) => h.transferId === transferId && h.status !== "superseded",
    );
    expect(sent).toBeDefined();
    expectWrittenBy(sent!, "claude");
    expect(lastContextText(x.scriptedCodex!.calls)).toBe(sent!.summaryText);
  });

  it("a provider switch on the same thread carries Claude's handoff in a 'provider' project", async () => {
    const x = await harness({ codex: "scripted" });
    await x.orchestrator.updateProjectSettings({
      projectId: x.projectId,
      settings: { handoffWriter: "provider" },
    });
    x.anthropic.enqueue(anthropicTextReply("Falcon noted."), anthropicTextReply("Keys noted."));
    const threadId = await x.createThread({ provider: "claude" });
    await x.send(threadId, "We'll use falcon-q for the job queue.");
    await x.send(threadId, "Remember to rotate the signing keys.");
    x.anthropic.enqueue(anthropicTextReply(PROVIDER_SUMMARY));
    x.scriptedCodex!.enqueue([{ type: "text", text: "continuing" }]);
    await x.send(threadId, "Continue on Codex.", { provider: "codex" });
    const sent = [...(await x.thread(threadId)).handoffs.values()].filter(
      (h) => h.status !== "superseded",
    );
    expect(sent).toHaveLength(1);
    expectWrittenBy(sent[0]!, "claude");
    expect(lastContextText(x.scriptedCodex!.calls)).toBe(sent[0]!.summaryText);
  });

  it("a bring-back in a 'provider' project asks for the provider's handoff; where no single provider thread holds the covered runs, Skein's is sent with the reason", async () => {
    const x = await harness({ codex: "scripted" });
    await x.orchestrator.updateProjectSettings({
      projectId: x.projectId,
      settings: { handoffWriter: "provider" },
    });
    x.anthropic.enqueue(anthropicTextReply("Falcon noted."), anthropicTextReply("Keys noted."));
    const threadId = await x.createThread({ provider: "claude" });
    await x.send(threadId, "We'll use falcon-q for the job queue.");
    const fork = (await x.orchestrator.forkThread({ threadId })).threadId as ThreadId;
    await x.send(fork, "Remember to rotate the signing keys.");
    const before = x.claudeRequests().length;
    x.scriptedCodex!.enqueue([{ type: "text", text: "brought back" }]);
    await x.send(threadId, "Bring it back.", { bringBackFrom: fork, provider: "codex" });
    const back = [...(await x.thread(threadId)).handoffs.values()].filter(
      (h) => h.status !== "superseded",
    );
    expect(back).toHaveLength(1);
    // Without the project default no authorship is recorded at all: the provider was asked.
    expect(back[0]!.payload.authorship).toEqual({
      by: "skein",
      provider: null,
      fallbackReason: "no single provider thread holds every covered run (they ran on several)",
    });
    expect(x.claudeRequests().length).toBe(before);
    expect(lastContextText(x.scriptedCodex!.calls)).toBe(back[0]!.summaryText);
  });
});
