import { describe, expect, it } from "vitest";
import { usageDetail, usageLabel } from "./usage-label.ts";

describe("usageLabel", () => {
  it("shows total tokens, and the cost only when the provider reported one", () => {
    expect(usageLabel(null)).toBeNull();
    expect(usageLabel({ inputTokens: 1000, outputTokens: 234 })).toBe("1.2K tokens");
    expect(usageLabel({ inputTokens: 10, outputTokens: 2, costUsd: 0.0042 })).toBe(
      "12 tokens · $0.0042",
    );
    expect(usageLabel({ inputTokens: 10, outputTokens: 2, costUsd: 1.234 })).toBe(
      "12 tokens · $1.23",
    );
  });

  it("details leave out figures nobody reported", () => {
    expect(usageDetail({ inputTokens: 1200, outputTokens: 5, reasoningTokens: 3 })).toBe(
      "input 1,200\noutput 5\nreasoning 3",
    );
  });
});
