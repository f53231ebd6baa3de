import {
  httpErrorReply,
  messageTexts,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import {
  askProviderToWrite,
  expectFallback,
  expectWrittenBy,
  lastContextText,
  PROVIDER_SUMMARY,
  SUMMARY_PROMPT_START,
} from "./support/provider-summary.ts";

const SLOW = 120_000;

describe("provider-written handoffs on real Codex (issue 25 item 3)", () => {
  const harness = useCodexSkeinHarness();

  /** A Codex thread with two runs and a fork of it, not yet run. */
  async function forked(x: Awaited<ReturnType<typeof harness>>) {
    x.server.enqueue(responsesTextReply("Falcon noted."), responsesTextReply("Keys noted."));
    const threadId = await x.createThread();
    await x.run(threadId, "We'll use falcon-q for the job queue.");
    await x.run(threadId, "Remember to rotate the signing keys.");
    const fork = await x.orchestrator.forkThread({ threadId });
    return { threadId, fork: fork.threadId as ThreadId, transferId: fork.transferId };
  }

  it(
    "B13/T11: Codex writes the handoff on a side turn of a native fork; the source is untouched and the fork's run sends exactly that text",
    async () => {
      const x = await harness();
      const { threadId, fork, transferId } = await forked(x);
      x.server.enqueue(responsesTextReply(PROVIDER_SUMMARY));
      const handoff = await askProviderToWrite(x, fork, transferId, "claude");
      expectWrittenBy(handoff, "codex");
      // The side turn saw the source's history (a fork of it) and the request for a handoff.
      const side = messageTexts(x.request(2), "user");
      expect(side.some((t) => t.includes("We'll use falcon-q"))).toBe(true);
      expect(side.at(-1)).toContain(SUMMARY_PROMPT_START);

      // The source thread is untouched: its next request has no trace of the side turn.
      x.server.enqueue(responsesTextReply("source goes on"));
      await x.run(threadId, "And on.");
      const next = JSON.stringify(x.request(-1));
      expect(next).not.toContain(SUMMARY_PROMPT_START);
      expect(next).not.toContain("falcon-q for the job queue (run 1)");
      expect((await x.thread(threadId)).runs.size).toBe(3);

      // Reviewable and editable before use (T11); here it is used as written.
      x.claude.enqueue([{ type: "text", text: "continuing" }]);
      await x.run(fork, "Continue.", "claude");
      expect(lastContextText(x.claude.calls)).toBe(handoff.summaryText);
    },
    SLOW,
  );

  it(
    "B13: a model error on the side turn falls back to Skein's handoff, with the reason recorded",
    async () => {
      const x = await harness();
      const { fork, transferId } = await forked(x);
      x.server.enqueue(httpErrorReply(500, "summary model exploded"));
      const handoff = await askProviderToWrite(x, fork, transferId, "claude");
      expectFallback(handoff, "codex", /failed/);
      expect(handoff.summaryText).toContain("## Decisions in force");
    },
    SLOW,
  );

  it(
    "B13: a side turn past its time limit is interrupted and Skein's handoff stands in, saying so",
    async () => {
      const x = await harness({ summaryTimeoutMs: 1_500 });
      const { fork, transferId } = await forked(x);
      const slow = [PROVIDER_SUMMARY.slice(0, 20), PROVIDER_SUMMARY.slice(20)];
      x.server.enqueue(responsesSlowTextReply(slow, 20_000));
      const handoff = await askProviderToWrite(x, fork, transferId, "claude");
      expectFallback(handoff, "codex", /^the provider did not answer within 1.5 s$/);
    },
    SLOW,
  );
});
