import type { ProjectId, ThreadId } from "@skein/domain";
import { type FakeGeminiServer, geminiErrorReply, geminiTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import type { Orchestrator } from "../src/orchestrator/index.ts";
import { useGeminiOrchestrator } from "./support/gemini-orchestrator.ts";

// Real Gemini CLI (ACP) on the fake Gemini API; its test home makes one attempt per model call,
// so every second conversation request below is Skein's new attempt.
let orchestrator: Orchestrator;
let gemini: FakeGeminiServer;
let projectId: ProjectId;
useGeminiOrchestrator(
  "gemini-attempts",
  { attempts: { baseDelayMs: 50, maxRetries: 1 } },
  (started) => {
    ({ orchestrator, gemini, projectId } = started);
  },
);

async function runOnGemini(text: string) {
  const { threadId } = await orchestrator.createThread({ projectId, provider: "gemini" });
  const { runId } = await orchestrator.sendMessage({ threadId: threadId as ThreadId, text });
  await orchestrator.waitForRun(runId);
  const state = await orchestrator.repository.thread(threadId as ThreadId);
  const attempts = [...state.attempts.values()]
    .filter((a) => a.runId === runId)
    .sort((a, b) => a.attemptOrdinal - b.attemptOrdinal);
  return { run: state.runs.get(runId)!, attempts };
}

describe("B1/B2: Gemini CLI's typed failures through the policy table (real Gemini CLI)", () => {
  it("B2 overloaded (503) earns a retry attempt of the same run, which completes", async () => {
    gemini.enqueue(
      geminiErrorReply(503, "The model is overloaded. Please try again later."),
      geminiTextReply("ANSWER-AFTER-RETRY"),
    );
    const { run, attempts } = await runOnGemini("first try is overloaded");
    expect(run.status).toBe("completed");
    expect(attempts.map((a) => [a.reason, a.status])).toEqual([
      ["initial", "superseded"],
      ["retry", "completed"],
    ]);
  }, 120_000);

  it("B2 rate_limited with the wait Gemini asked for earns a retry, which completes", async () => {
    gemini.enqueue(
      geminiErrorReply(429, "Resource has been exhausted (e.g. check quota).", {
        retryDelay: "1s",
      }),
      geminiTextReply("ANSWER-AFTER-WAIT"),
    );
    const { run, attempts } = await runOnGemini("first try is rate limited");
    expect(run.status).toBe("completed");
    expect(attempts.map((a) => a.reason)).toEqual(["initial", "retry"]);
  }, 120_000);

  it("B1 auth (401) fails the run at once, in words that say what to check", async () => {
    gemini.enqueue(geminiErrorReply(401, "API key not valid. Please pass a valid API key."));
    const { run, attempts } = await runOnGemini("the key is wrong");
    expect(run.status).toBe("failed");
    expect(attempts).toHaveLength(1);
    expect(run.error).toMatch(
      /^The Gemini CLI turn failed: API key not valid\. Please pass a valid API key\. \(UNAUTHENTICATED\)\. Check Gemini CLI's credentials on the server/,
    );
  }, 120_000);

  it("B1 invalid_request (400) fails the run at once, in words", async () => {
    gemini.enqueue(geminiErrorReply(400, "Request contains an invalid argument."));
    const { run, attempts } = await runOnGemini("a bad request");
    expect(run.status).toBe("failed");
    expect(attempts).toHaveLength(1);
    expect(run.error).toMatch(
      /^The Gemini CLI turn failed: Request contains an invalid argument\. \(INVALID_ARGUMENT\)\. Gemini CLI refused the request itself/,
    );
  }, 120_000);
});
