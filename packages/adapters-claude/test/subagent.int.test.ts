import { afterEach, describe, expect, it } from "vitest";
import { anthropicTaskReply, anthropicTextReply } from "@skein/fake-models";
import { createHarness, type Harness, runTurn } from "./support/harness.ts";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe("native subagents (T9)", () => {
  it("a scripted Agent/Task call produces child messages tagged with parent_tool_use_id", async () => {
    harness = await createHarness({
      script: [
        anthropicTaskReply("Look into it", { description: "child job" }),
        anthropicTextReply("parent done"),
      ],
      subagentScript: [anthropicTextReply("child report")],
    });
    const session = harness.runtime.startSession({
      ...harness.settings,
      sdkOptions: { forwardSubagentText: true },
    });
    const { messages, outcome } = await runTurn(session.send("delegate this"));
    expect(outcome.status).toBe("completed");

    const call = messages
      .flatMap(({ message }) => (message.type === "assistant" ? message.message.content : []))
      .find((block) => block.type === "tool_use");
    expect(call?.type === "tool_use" && call.name).toBe("Agent");
    const callId = call?.type === "tool_use" ? call.id : "";

    const children = messages.filter(
      ({ message }) => "parent_tool_use_id" in message && message.parent_tool_use_id === callId,
    );
    expect(children.length).toBeGreaterThan(0);
    const childText = children.flatMap(({ message }) =>
      message.type === "assistant"
        ? message.message.content.flatMap((b) => (b.type === "text" ? [b.text] : []))
        : [],
    );
    expect(childText).toContain("child report");
    expect(
      messages.some(
        ({ message }) =>
          message.type === "system" &&
          message.subtype === "task_started" &&
          message.tool_use_id === callId,
      ),
    ).toBe(true);
    const agents = harness.server.conversationRequests().map((r) => r.agent);
    expect(agents).toEqual(["main", "subagent", "main"]);
  });
});
