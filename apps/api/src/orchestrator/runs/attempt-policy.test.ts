import { describe, expect, it } from "vitest";
import { attemptDelayMs, DEFAULT_ATTEMPT_POLICY, recoveryFor } from "./attempt-policy.ts";

describe("which failure gets a new attempt (B2)", () => {
  it("B2: a runtime gone → provider_recovery; a model service failure → retry; anything else → none", () => {
    expect(recoveryFor("codex app-server crashed (killed by SIGKILL)", false)).toBe(
      "provider_recovery",
    );
    expect(recoveryFor("provider runtime ended without finishing the turn", true)).toBe(
      "provider_recovery",
    );
    expect(recoveryFor("anything at all", false)).toBe("provider_recovery");
    expect(recoveryFor("model returned HTTP 500", true)).toBe("retry");
    expect(recoveryFor("API Error: 529 overloaded_error", true)).toBe("retry");
    expect(recoveryFor("stream disconnected before completion", true)).toBe("retry");
    expect(recoveryFor("model returned HTTP 400: prompt too long", true)).toBeNull();
    expect(recoveryFor("401 invalid x-api-key", true)).toBeNull();
    expect(recoveryFor("the model refused", true)).toBeNull();
  });

  it("B1: the pause before each new attempt doubles and is capped", () => {
    const policy = { ...DEFAULT_ATTEMPT_POLICY, baseDelayMs: 100, maxDelayMs: 350 };
    expect([1, 2, 3, 4].map((n) => attemptDelayMs(policy, n))).toEqual([100, 200, 350, 350]);
  });
});
