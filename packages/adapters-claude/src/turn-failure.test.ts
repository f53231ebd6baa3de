import { describe, expect, it } from "vitest";
import { claudeRuntimeGone, claudeTurnFailure } from "./turn-failure.ts";

describe("a failed Claude turn's cause (B2)", () => {
  it("B2: the HTTP status in the CLI's text comes first, over its catch-all error kind", () => {
    expect(claudeTurnFailure("API Error: 529 overloaded", "server_error").kind).toBe("overloaded");
    expect(claudeTurnFailure("API Error: 500 boom", "server_error").kind).toBe("internal");
    expect(
      claudeTurnFailure("API Error: 400 prompt is too long: 9 > 8", "invalid_request"),
    ).toEqual({ kind: "context_too_long", message: "API Error: 400 prompt is too long: 9 > 8" });
  });

  it("B2: the CLI's own error kind, then its words, where the text has no status", () => {
    expect(
      claudeTurnFailure("Invalid API key · Fix external API key", "authentication_failed"),
    ).toMatchObject({ kind: "auth" });
    expect(
      claudeTurnFailure("API Error: Connection refused (ECONNREFUSED)", "server_error").kind,
    ).toBe("network");
    expect(
      claudeTurnFailure("API Error: 429 rate limited. Please try again in 3s.", "rate_limit"),
    ).toMatchObject({ kind: "rate_limited", retryAfterMs: 3_000 });
    expect(claudeTurnFailure("something odd", undefined).kind).toBe("internal");
  });

  it("B2: a process gone before its result is a crashed runtime", () => {
    expect(claudeRuntimeGone(null)).toEqual({
      kind: "runtime_crashed",
      message: "the claude process ended",
    });
  });
});
