import type { AppToolHandler, ThreadSettings } from "@skein/domain/provider";
import {
  anthropicTextReply,
  anthropicToolNames,
  anthropicToolResults,
  anthropicToolUseReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { collect, completed, useAdapterHarness, itemsOf } from "./support/adapter-harness.ts";

const openHarness = useAdapterHarness();

const echoTool = {
  name: "skein_echo",
  description: "Echoes its text back.",
  inputSchema: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
    additionalProperties: false,
  },
};

describe("app-owned tools over the in-process MCP server", () => {
  it("offers the tool, routes the call to onAppToolCall without asking, and returns its output to the model", async () => {
    const h = await openHarness({
      script: [
        anthropicToolUseReply("mcp__skein__skein_echo", { text: "ping" }, { id: "toolu_echo_1" }),
        anthropicTextReply("got it"),
      ],
    });
    const settings: ThreadSettings = { ...h.settings, tools: [echoTool] };
    const calls: Parameters<AppToolHandler>[0][] = [];
    const onAppToolCall: AppToolHandler = async (call) => {
      calls.push(call);
      return { output: "pong from the app" };
    };
    const { nativeThreadRef } = await h.session.startThread(settings);
    const events = await collect(
      h.session.startTurn(nativeThreadRef, { text: "use the tool" }, { settings, onAppToolCall }),
    );

    expect(completed(events).status).toBe("completed");
    expect(calls).toEqual([
      { toolName: "skein_echo", input: { text: "ping" }, callRef: "toolu_echo_1", nativeThreadRef },
    ]);
    // approval-required mode, yet no approval: the app's own tools are pre-allowed.
    expect(events.some((e) => e.type === "request.opened")).toBe(false);
    expect(itemsOf(events, "dynamic_tool")[0]).toMatchObject({
      itemRef: "toolu_echo_1",
      status: "completed",
      fields: { toolName: "skein_echo", input: { text: "ping" }, result: "pong from the app" },
    });
    const [first, second] = h.server.conversationRequests();
    expect(anthropicToolNames(first!)).toContain("mcp__skein__skein_echo");
    expect(anthropicToolResults(second!)).toEqual([
      { toolUseId: "toolu_echo_1", text: "pong from the app", isError: false },
    ]);
  });

  it("reports a handler failure to the model as an error result; the turn still completes", async () => {
    const h = await openHarness({
      script: [
        anthropicToolUseReply("mcp__skein__skein_echo", { text: "x" }, { id: "toolu_echo_2" }),
        anthropicTextReply("it failed"),
      ],
    });
    const settings: ThreadSettings = { ...h.settings, tools: [echoTool] };
    const { nativeThreadRef } = await h.session.startThread(settings);
    const events = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "try" },
        {
          settings,
          onAppToolCall: async () => {
            throw new Error("child thread crashed");
          },
        },
      ),
    );
    expect(completed(events).status).toBe("completed");
    expect(itemsOf(events, "dynamic_tool")[0]?.status).toBe("failed");
    expect(anthropicToolResults(h.server.conversationRequests()[1]!)).toEqual([
      { toolUseId: "toolu_echo_2", text: "child thread crashed", isError: true },
    ]);
  });
});
