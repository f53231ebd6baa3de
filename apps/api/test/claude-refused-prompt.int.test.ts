import type { ThreadState } from "@skein/domain";
import {
  anthropicAssistantTexts,
  anthropicErrorReply,
  anthropicLatestUserText,
  anthropicRequestText,
  anthropicTextReply,
  anthropicUserTexts,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { type ClaudeSkeinHarness, useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

const SLOW = 90_000;

const harness = useClaudeSkeinHarness();

const assistantTexts = (state: ThreadState) =>
  [...state.turnItems.values()]
    .sort((a, b) => a.sortKey - b.sortKey)
    .flatMap((e) => (e.item.type === "assistant_message" ? [e.item.text] : []));

/** The model refuses any request whose prompt holds this, however often it is sent. */
function refusePoison(x: ClaudeSkeinHarness) {
  x.anthropic.answerPrompt(
    "POISON",
    anthropicErrorReply(400, "this prompt cannot be processed", {
      errorType: "invalid_request_error",
      shouldRetry: false,
    }),
  );
}

describe("B1: a Claude prompt the model always refuses does not poison the thread (real SDK)", () => {
  it(
    "B1: the refused run fails once with the cause; the next message is sent on its own and completes",
    async () => {
      const h = await harness();
      refusePoison(h);
      h.anthropic.enqueue(anthropicTextReply("hello back"), anthropicTextReply("recovered"));
      const threadId = await h.createThread();
      await h.send(threadId, "hello");

      const refused = await h.send(threadId, "POISON: a prompt the model refuses");
      const run = refused.state.runs.get(refused.runId);
      expect(run?.status).toBe("failed");
      expect(run?.error).toContain("this prompt cannot be processed");

      const next = await h.send(threadId, "a fresh question");
      expect(next.state.runs.get(next.runId)?.status).toBe("completed");
      expect(assistantTexts(next.state).at(-1)).toBe("recovered");
      // The next message's model request carries it alone, after the history that worked.
      const request = h.claudeRequests().at(-1)!;
      expect(anthropicLatestUserText(request).trim()).toBe("a fresh question");
      expect(anthropicRequestText(request)).not.toContain("POISON");
      expect(anthropicUserTexts(request).map((t) => t.trim())).toEqual([
        "hello",
        "a fresh question",
      ]);
      expect(anthropicAssistantTexts(request)).toEqual(["hello back"]);
      // Still the same provider thread: the native conversation was cut, not replaced.
      expect(next.state.providerThreads.size).toBe(1);
    },
    SLOW,
  );

  it(
    "B1: refused as the thread's first message, the next one starts the conversation afresh on the same provider thread",
    async () => {
      const h = await harness();
      refusePoison(h);
      h.anthropic.enqueue(anthropicTextReply("first real answer"), anthropicTextReply("second"));
      const threadId = await h.createThread();
      const refused = await h.send(threadId, "POISON from the start");
      expect(refused.state.runs.get(refused.runId)?.status).toBe("failed");
      const nativeRef = [...refused.state.providerThreads.values()][0]?.nativeThreadRef;

      const next = await h.send(threadId, "try something else");
      expect(next.state.runs.get(next.runId)?.status).toBe("completed");
      expect(anthropicUserTexts(h.claudeRequests().at(-1)!).map((t) => t.trim())).toEqual([
        "try something else",
      ]);
      const after = await h.send(threadId, "and then");
      expect(after.state.runs.get(after.runId)?.status).toBe("completed");
      const request = h.claudeRequests().at(-1)!;
      expect(anthropicUserTexts(request).map((t) => t.trim())).toEqual([
        "try something else",
        "and then",
      ]);
      expect(request.headers["x-claude-code-session-id"]).toBe(nativeRef);
      expect([...after.state.providerThreads.values()].map((t) => t.nativeThreadRef)).toEqual([
        nativeRef,
      ]);
    },
    SLOW,
  );
});
