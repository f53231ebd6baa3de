import { describe, expect, it } from "vitest";
import { turnFailureInWords } from "./failure-words.ts";

describe("a failed turn's error in words", () => {
  it("B1: says what happened, keeps the provider's text, and says what to do", () => {
    expect(turnFailureInWords("codex", "codex app-server crashed (killed by SIGKILL)")).toBe(
      "The Codex turn failed: codex app-server crashed (killed by SIGKILL). The Codex runtime " +
        "stopped during the turn; send the message again (Skein starts a new runtime and resumes " +
        "the conversation).",
    );
    expect(turnFailureInWords("claude", "API Error: 529 overloaded")).toMatch(
      /^The Claude Code turn failed: API Error: 529 overloaded\. The model service did not answer properly/,
    );
    expect(turnFailureInWords("claude", "401 invalid x-api-key")).toMatch(
      /Check Claude Code's credentials on the server/,
    );
    expect(turnFailureInWords("codex", "something odd.")).toBe(
      "The Codex turn failed: something odd. Send the message again; if it keeps failing, " +
        "provider status and the server log say more.",
    );
    expect(turnFailureInWords("codex", "  ")).toMatch(/^The Codex turn failed: no reason given\./);
  });
});
