import { PROVIDER_FAILURE_KINDS, type ProviderFailureKind } from "../provider/provider-failure.ts";
import { describe, expect, it } from "vitest";
import { DEFAULT_ATTEMPT_POLICY } from "./attempt-policy.ts";
import { decideFailure, failureInWords } from "./failure-policy.ts";

const policy = { ...DEFAULT_ATTEMPT_POLICY, baseDelayMs: 100, maxDelayMs: 400 };
const alive = { runtimeAlive: true, retries: 0, policy };

/** The decision each kind gets on a live runtime with attempts left. */
const EXPECTED: Record<ProviderFailureKind, "retry" | "provider_recovery" | null> = {
  auth: null,
  rate_limited: "retry",
  overloaded: "retry",
  context_too_long: null,
  network: "retry",
  invalid_request: null,
  runtime_crashed: "provider_recovery",
  internal: "retry",
};

describe("the provider failure policy (B1/B2)", () => {
  it.each(PROVIDER_FAILURE_KINDS)("B2: %s gets its decision from the table", (kind) => {
    const decision = decideFailure({ kind, message: "x" }, alive);
    expect(decision.attempt).toBe(EXPECTED[kind]);
  });

  it("B2: a runtime that is gone gets a new runtime, whatever the kind", () => {
    for (const kind of PROVIDER_FAILURE_KINDS) {
      const decision = decideFailure({ kind, message: "x" }, { ...alive, runtimeAlive: false });
      expect(decision).toEqual({ attempt: "provider_recovery", delayMs: 100 });
    }
  });

  it("B2: no kind gets more new attempts than the policy allows", () => {
    const used = { ...alive, retries: policy.maxRetries };
    for (const kind of PROVIDER_FAILURE_KINDS) {
      expect(decideFailure({ kind, message: "x" }, used)).toEqual({ attempt: null });
    }
    expect(
      decideFailure({ kind: "runtime_crashed", message: "x" }, { ...used, runtimeAlive: false }),
    ).toEqual({ attempt: null });
  });

  it("B2: a rate limit waits as long as the provider asked, and fails when that is too long", () => {
    const asked = (retryAfterMs: number) =>
      decideFailure({ kind: "rate_limited", message: "429", retryAfterMs }, alive);
    expect(asked(2_500)).toEqual({ attempt: "retry", delayMs: 2_500 });
    expect(asked(10)).toEqual({ attempt: "retry", delayMs: 100 });
    expect(asked(policy.maxRetryAfterMs + 1)).toEqual({ attempt: null });
    expect(
      decideFailure({ kind: "rate_limited", message: "429" }, { ...alive, retries: 1 }),
    ).toEqual({ attempt: "retry", delayMs: 200 });
  });

  it("B1: the words keep the provider's own, name the attempt, and say what to do per kind", () => {
    expect(
      failureInWords("codex", {
        kind: "runtime_crashed",
        message: "codex app-server was killed by SIGKILL",
      }),
    ).toBe(
      "The Codex turn failed: codex app-server was killed by SIGKILL. The Codex runtime " +
        "stopped during the turn; send the message again (Skein starts a new runtime and resumes " +
        "the conversation).",
    );
    expect(failureInWords("claude", { kind: "overloaded", message: "API Error: 529 x" }, 2)).toBe(
      "The Claude Code turn failed: API Error: 529 x (attempt 2). The model service did not " +
        "answer properly; send the message again in a moment.",
    );
    expect(failureInWords("claude", { kind: "auth", message: "401 invalid x-api-key" })).toMatch(
      /Check Claude Code's credentials on the server/,
    );
    expect(
      failureInWords("codex", { kind: "rate_limited", message: "429", retryAfterMs: 2_100 }),
    ).toMatch(/limiting requests; send the message again after 3 s\.$/);
    expect(failureInWords("codex", { kind: "context_too_long", message: "too long." })).toMatch(
      /^The Codex turn failed: too long\. The conversation no longer fits the model's context/,
    );
    expect(failureInWords("codex", { kind: "invalid_request", message: "400" })).toMatch(
      /Codex refused the request itself/,
    );
    expect(failureInWords("codex", { kind: "internal", message: "  " })).toBe(
      "The Codex turn failed: no reason given. Send the message again; if it keeps failing, " +
        "provider status and the server log say more.",
    );
  });
});
