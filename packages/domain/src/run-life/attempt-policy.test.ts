import { describe, expect, it } from "vitest";
import { attemptDelayMs, DEFAULT_ATTEMPT_POLICY } from "./attempt-policy.ts";

describe("the pause before a new attempt (B1)", () => {
  it("B1: the pause before each new attempt doubles and is capped", () => {
    const policy = { ...DEFAULT_ATTEMPT_POLICY, baseDelayMs: 100, maxDelayMs: 350 };
    expect([1, 2, 3, 4].map((n) => attemptDelayMs(policy, n))).toEqual([100, 200, 350, 350]);
  });
});
