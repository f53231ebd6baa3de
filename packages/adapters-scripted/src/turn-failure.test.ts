import { describe, expect, it } from "vitest";
import { scriptedTurnFailure } from "./turn-failure.ts";

describe("B2: the scripted agent's failures as ProviderFailure kinds", () => {
  it.each([
    [401, "invalid x-api-key", "auth"],
    [429, "rate limited", "rate_limited"],
    [529, "Overloaded", "overloaded"],
    [400, "prompt is too long: 210000 tokens > 200000 maximum", "context_too_long"],
    [400, "messages: roles must alternate", "invalid_request"],
    [500, "contract upstream failure", "internal"],
    [null, "fetch failed", "network"],
  ] as const)("HTTP %s %j is %s", (httpStatus, error, kind) => {
    expect(scriptedTurnFailure({ error, httpStatus })).toEqual({ kind, message: error });
  });

  it("a 429's retry-after header is the wait, in milliseconds", () => {
    expect(scriptedTurnFailure({ error: "slow down", httpStatus: 429, retryAfter: "3" })).toEqual({
      kind: "rate_limited",
      message: "slow down",
      retryAfterMs: 3_000,
    });
  });

  it("retry-after on anything but a rate limit, or unreadable, is not a wait", () => {
    expect(scriptedTurnFailure({ error: "boom", httpStatus: 500, retryAfter: "3" })).toEqual({
      kind: "internal",
      message: "boom",
    });
    expect(
      scriptedTurnFailure({ error: "slow", httpStatus: 429, retryAfter: "soon" }).retryAfterMs,
    ).toBeUndefined();
  });
});
