import {
  closedLoopbackUrl,
  createGeminiTestHome,
  type GeminiErrorReply,
  geminiErrorReply,
} from "@skein/fake-models";
import type { ProviderAdapter, RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { createGeminiAdapter } from "../src/gemini.ts";
import { createGeminiHarness } from "./support/gemini-harness.ts";

type Completed = Extract<RuntimeEvent, { type: "turn.completed" }>;

/** One prompt on a new thread of a new runtime; the turn's last event. */
async function failedTurn(adapter: ProviderAdapter, cwd: string): Promise<Completed> {
  const session = await adapter.openSession({ providerSessionId: "pss_failure", cwd });
  try {
    const settings = { cwd, runtimeMode: "full-access", model: null } as const;
    const { nativeThreadRef } = await session.startThread(settings);
    const turn = session.startTurn(nativeThreadRef, { text: "hello" }, { settings });
    let completed: Completed | null = null;
    for await (const event of turn.events) if (event.type === "turn.completed") completed = event;
    if (!completed) throw new Error("the turn never completed");
    return completed;
  } finally {
    await session.close();
  }
}

const CASES: Array<[string, GeminiErrorReply, object, RegExp]> = [
  [
    "auth",
    geminiErrorReply(401, "API key not valid. Please pass a valid API key."),
    { kind: "auth" },
    /API key not valid.*UNAUTHENTICATED/,
  ],
  [
    "rate_limited with retryAfter",
    geminiErrorReply(429, "Resource has been exhausted (e.g. check quota).", { retryDelay: "3s" }),
    { kind: "rate_limited", retryAfterMs: 3_000 },
    /Resource has been exhausted/,
  ],
  [
    "overloaded",
    geminiErrorReply(503, "The model is overloaded. Please try again later."),
    { kind: "overloaded" },
    /overloaded/,
  ],
  [
    "invalid_request",
    geminiErrorReply(400, "Request contains an invalid argument."),
    { kind: "invalid_request" },
    /invalid argument.*INVALID_ARGUMENT/,
  ],
];

describe("B2: Gemini CLI's failed turns carry their typed failure (real Gemini CLI, fake Gemini API)", () => {
  it.each(CASES)(
    "B2 %s",
    async (_kind, reply, failure, words) => {
      const harness = await createGeminiHarness();
      try {
        harness.server.enqueue(reply);
        const completed = await failedTurn(harness.adapter, harness.cwd);
        expect(completed.status).toBe("failed");
        expect(completed.failure).toMatchObject(failure);
        expect(completed.failure?.message).toMatch(words);
        expect(completed.error).toBe(completed.failure?.message);
        // Only the kind the status names: a 429 never reads as anything but a rate limit.
        if (completed.failure?.kind !== "rate_limited") {
          expect(completed.failure?.retryAfterMs).toBeUndefined();
        }
      } finally {
        await harness.dispose();
      }
    },
    120_000,
  );

  it("B2 network: a model service on a dead loopback port", async () => {
    const harness = await createGeminiHarness();
    const home = await createGeminiTestHome({ baseUrl: await closedLoopbackUrl() });
    try {
      const adapter = createGeminiAdapter({ env: home.env });
      const completed = await failedTurn(adapter, harness.cwd);
      expect(completed.status).toBe("failed");
      expect(completed.failure).toMatchObject({ kind: "network" });
      expect(completed.failure?.message).toMatch(/fetch failed/);
    } finally {
      await home.remove();
      await harness.dispose();
    }
  }, 120_000);
});
