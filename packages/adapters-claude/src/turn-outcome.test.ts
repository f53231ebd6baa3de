import type { SDKResultMessage } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import { classifyResult } from "./turn-outcome.ts";

/** Only the fields classifyResult reads; real results carry many more. */
function result(fields: Record<string, unknown>): SDKResultMessage {
  return { type: "result", ...fields } as unknown as SDKResultMessage;
}

describe("classifyResult", () => {
  it("reads a normal result as completed", () => {
    expect(classifyResult(result({ subtype: "success", is_error: false }), false)).toEqual({
      status: "completed",
      error: null,
    });
  });

  it("reads an API error (subtype success, is_error) as failed with its text", () => {
    const r = result({ subtype: "success", is_error: true, result: "API Error: 500 boom" });
    expect(classifyResult(r, false)).toEqual({ status: "failed", error: "API Error: 500 boom" });
  });

  it("reads aborted turns as interrupted", () => {
    const streaming = result({
      subtype: "error_during_execution",
      is_error: true,
      errors: [],
      terminal_reason: "aborted_streaming",
    });
    expect(classifyResult(streaming, false).status).toBe("interrupted");
    const noReason = result({ subtype: "error_during_execution", is_error: true, errors: [] });
    expect(classifyResult(noReason, true).status).toBe("interrupted");
  });

  it("keeps execution errors, without the CLI's diagnostic lines", () => {
    const r = result({
      subtype: "error_during_execution",
      is_error: true,
      errors: ["[ede_diagnostic] result_type=user", "No conversation found with session ID: x"],
    });
    expect(classifyResult(r, false)).toEqual({
      status: "failed",
      error: "No conversation found with session ID: x",
    });
  });
});
