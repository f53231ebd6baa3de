import type { PermissionUpdate } from "@anthropic-ai/claude-agent-sdk";
import { describe, expect, it } from "vitest";
import {
  decisionFor,
  PermissionBroker,
  type ToolPermissionRequest,
  toPermissionResult,
} from "./permissions.ts";

function request(requestId: string, signal = new AbortController().signal): ToolPermissionRequest {
  const suggestion: PermissionUpdate = {
    type: "addRules",
    rules: [{ toolName: "Bash", ruleContent: "touch x" }],
    behavior: "allow",
    destination: "localSettings",
  };
  return {
    requestId,
    toolName: "Bash",
    input: { command: "touch x" },
    toolUseId: `toolu_${requestId}`,
    agentId: null,
    title: null,
    description: null,
    blockedPath: null,
    decisionReason: null,
    suggestions: [suggestion],
    signal,
  };
}

describe("toPermissionResult", () => {
  it("keeps remembered rules in the session, never in settings files", () => {
    const result = toPermissionResult(request("r1"), {
      behavior: "allow",
      rememberForSession: true,
    });
    expect(result).toMatchObject({ behavior: "allow", updatedInput: { command: "touch x" } });
    expect(result.behavior === "allow" && result.updatedPermissions).toEqual([
      expect.objectContaining({ destination: "session" }),
    ]);
  });

  it("denies with a message the model will see", () => {
    expect(toPermissionResult(request("r2"), { behavior: "deny" })).toMatchObject({
      behavior: "deny",
      message: expect.stringContaining("declined"),
      toolUseID: "toolu_r2",
    });
  });
});

describe("PermissionBroker", () => {
  it("parks a request until it is answered", async () => {
    const broker = new PermissionBroker();
    const decision = broker.handler(request("r3"));
    expect((await broker.nextRequest()).requestId).toBe("r3");
    broker.answer("r3", { behavior: "allow" });
    expect(await decision).toEqual({ behavior: "allow" });
    expect(broker.pending()).toEqual([]);
    expect(() => broker.answer("r3", { behavior: "allow" })).toThrow(/answered/);
    expect(() => broker.answer("nope", { behavior: "allow" })).toThrow(/unknown/);
  });

  it("withdraws a request when Claude Code aborts it", async () => {
    const broker = new PermissionBroker();
    const abort = new AbortController();
    const states: string[] = [];
    broker.onChange((entry) => states.push(entry.state));
    const decision = broker.handler(request("r4", abort.signal));
    abort.abort();
    expect((await decision).behavior).toBe("deny");
    expect(states).toEqual(["pending", "withdrawn"]);
    expect(() => broker.answer("r4", { behavior: "allow" })).toThrow(/withdrawn/);
  });
});

describe("decisionFor", () => {
  it("keys AskUserQuestion answers by question text, as Claude Code reads them", () => {
    const input = {
      questions: [
        {
          question: "Which color?",
          header: "Color",
          options: [{ label: "Red" }, { label: "Blue" }],
        },
      ],
    };
    const ask = { ...request("r2"), toolName: "AskUserQuestion", input };
    expect(decisionFor(ask, { decision: "accept", answers: { Color: "Red" } })).toMatchObject({
      behavior: "allow",
      updatedInput: { ...input, answers: { "Which color?": "Red" } },
    });
  });
});
