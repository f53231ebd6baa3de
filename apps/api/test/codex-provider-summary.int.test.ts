import {
  httpErrorReply,
  messageTexts,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

const SLOW = 120_000;
const PROMPT_START = "Write a handoff of this conversation";
const SUMMARY = [
  "## Goal",
  "Ship the job queue (run 1)",
  "## Decisions in force",
  "- falcon-q for the job queue (run 1)",
  "## Open tasks",
  "- rotate the signing keys (run 2)",
].join("\n");

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
      x.server.enqueue(responsesTextReply(SUMMARY));
      const { handoffId } = await x.orchestrator.regenerateHandoff({
        transferId,
        provider: "claude",
        writer: "provider",
      });
      const handoff = (await x.thread(fork)).handoffs.get(handoffId as never)!;
      expect(handoff.payload.authorship).toEqual({
        by: "provider",
        provider: "codex",
        fallbackReason: null,
      });
      expect(handoff.summaryText).toMatch(
        /^# Context handoff\nWritten by codex from its own thread/,
      );
      expect(handoff.summaryText).toContain(SUMMARY);
      // The side turn saw the source's history (a fork of it) and the request for a handoff.
      const side = messageTexts(x.request(2), "user");
      expect(side.some((t) => t.includes("We'll use falcon-q"))).toBe(true);
      expect(side.at(-1)).toContain(PROMPT_START);

      // The source thread is untouched: its next request has no trace of the side turn.
      x.server.enqueue(responsesTextReply("source goes on"));
      await x.run(threadId, "And on.");
      const next = JSON.stringify(x.request(-1));
      expect(next).not.toContain(PROMPT_START);
      expect(next).not.toContain("falcon-q for the job queue (run 1)");
      expect((await x.thread(threadId)).runs.size).toBe(3);

      // Reviewable and editable before use (T11); here it is used as written.
      x.claude.enqueue([{ type: "text", text: "continuing" }]);
      await x.run(fork, "Continue.", "claude");
      const turn = x.claude.calls.filter((c) => c.op === "startTurn").at(-1);
      const args = turn?.args as { input: { context?: { text: string } | null } } | undefined;
      expect(args?.input.context?.text).toBe(handoff.summaryText);
    },
    SLOW,
  );

  it(
    "B13: a model error on the side turn falls back to Skein's handoff, with the reason recorded",
    async () => {
      const x = await harness();
      const { fork, transferId } = await forked(x);
      x.server.enqueue(httpErrorReply(500, "summary model exploded"));
      const { handoffId } = await x.orchestrator.regenerateHandoff({
        transferId,
        provider: "claude",
        writer: "provider",
      });
      const handoff = (await x.thread(fork)).handoffs.get(handoffId as never)!;
      expect(handoff.payload.authorship).toMatchObject({ by: "skein", provider: "codex" });
      expect(handoff.payload.authorship?.fallbackReason).toMatch(/failed/);
      expect(handoff.summaryText).toMatch(/^# Context handoff\nContext carried over/);
      expect(handoff.summaryText).toContain("## Decisions in force");
      expect(handoff.summaryText).toContain(
        "We'll use falcon-q for the job queue. (run 1, the person)",
      );
    },
    SLOW,
  );

  it(
    "B13: a side turn past its time limit is interrupted and Skein's handoff stands in, saying so",
    async () => {
      const x = await harness({ summaryTimeoutMs: 1_500 });
      const { fork, transferId } = await forked(x);
      x.server.enqueue(responsesSlowTextReply([SUMMARY.slice(0, 20), SUMMARY.slice(20)], 20_000));
      const { handoffId } = await x.orchestrator.regenerateHandoff({
        transferId,
        provider: "claude",
        writer: "provider",
      });
      const handoff = (await x.thread(fork)).handoffs.get(handoffId as never)!;
      expect(handoff.payload.authorship).toEqual({
        by: "skein",
        provider: "codex",
        fallbackReason: "the provider did not answer within 2 s",
      });
      expect(handoff.summaryText).toContain("## Open tasks");
    },
    SLOW,
  );
});
