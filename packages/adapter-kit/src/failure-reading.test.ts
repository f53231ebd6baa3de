import { describe, expect, it } from "vitest";
import { failureOfWords, kindOfStatus, kindOfWords, retryAfterOfWords } from "./failure-reading.ts";

describe("reading a provider's error into a typed failure (B2)", () => {
  it("B2: an HTTP status names its kind; a 400 about the context is told apart", () => {
    expect(kindOfStatus(401)).toBe("auth");
    expect(kindOfStatus(403)).toBe("auth");
    expect(kindOfStatus(429)).toBe("rate_limited");
    expect(kindOfStatus(529)).toBe("overloaded");
    expect(kindOfStatus(503)).toBe("overloaded");
    expect(kindOfStatus(500)).toBe("internal");
    expect(kindOfStatus(400, "prompt is too long: 210000 tokens > 200000 maximum")).toBe(
      "context_too_long",
    );
    expect(kindOfStatus(400, "messages: field required")).toBe("invalid_request");
    expect(kindOfStatus(200)).toBeNull();
  });

  it("B2: words name a kind, most specific first", () => {
    expect(kindOfWords("API Error: 401 invalid x-api-key")).toBe("auth");
    expect(kindOfWords("API Error: 429 rate_limit_error")).toBe("rate_limited");
    expect(kindOfWords("API Error: 529 overloaded_error")).toBe("overloaded");
    expect(kindOfWords("API Error: 400 prompt is too long")).toBe("context_too_long");
    expect(kindOfWords("API Error: 400 bad thing")).toBe("invalid_request");
    expect(kindOfWords("API Error: 500 api_error")).toBe("internal");
    expect(kindOfWords("Connection error. ECONNREFUSED")).toBe("network");
    expect(kindOfWords("something odd")).toBe("internal");
  });

  it("B2: a rate limit's wait is read from the words when they give one", () => {
    expect(retryAfterOfWords("429; retry-after: 3")).toBe(3_000);
    expect(retryAfterOfWords("Rate limit reached. Please try again in 1.5s.")).toBe(1_500);
    expect(retryAfterOfWords("try again in 250ms")).toBe(250);
    expect(retryAfterOfWords("429 too many requests")).toBeUndefined();
    expect(failureOfWords("429 Too Many Requests; try again in 2s")).toEqual({
      kind: "rate_limited",
      message: "429 Too Many Requests; try again in 2s",
      retryAfterMs: 2_000,
    });
    expect(failureOfWords("  ")).toEqual({
      kind: "internal",
      message: "the provider gave no reason",
    });
  });
});
