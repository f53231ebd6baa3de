import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { AcpTurn } from "./acp-turn.ts";

async function drain(turn: AcpTurn): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const event of turn.events) events.push(event);
  return events;
}

describe("ACP session updates as Skein turn events", () => {
  it("joins message chunks into one item, closes it at a tool call, and maps tools by kind", async () => {
    const turn = new AcpTurn("s1", "/work");
    const text = (t: string) =>
      turn.apply(
        { sessionUpdate: "agent_message_chunk", content: { type: "text", text: t } },
        "raw:1",
      );
    text("Hel");
    text("lo");
    turn.apply(
      {
        sessionUpdate: "tool_call",
        toolCallId: "call-1",
        title: "ls",
        kind: "execute",
        status: "pending",
        rawInput: { command: "ls -la" },
        content: [
          { type: "content", content: { type: "text", text: "[cwd /work] (describes it)" } },
        ],
      },
      undefined,
    );
    turn.apply(
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "call-1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "a.txt" } }],
      },
      undefined,
    );
    turn.apply(
      {
        sessionUpdate: "plan",
        entries: [{ content: "step", priority: "high", status: "in_progress" }],
      },
      undefined,
    );
    turn.finish("completed", undefined, { inputTokens: 3, outputTokens: 2 });
    const events = await drain(turn);
    expect(events.map((e) => e.type)).toEqual([
      "turn.started",
      "item.started",
      "item.delta",
      "item.delta",
      "item.completed",
      "item.started",
      "item.completed",
      "plan.updated",
      "usage",
      "turn.completed",
    ]);
    expect(events[4]).toMatchObject({ kind: "assistant_message", fields: { text: "Hello" } });
    expect(events[1]).toMatchObject({ rawEventId: "raw:1" });
    expect(events[5]).toMatchObject({
      itemRef: "call-1",
      kind: "command_execution",
      fields: { command: "ls -la", cwd: "/work" },
    });
    // What Gemini puts in a pending call describes it; it is not output.
    expect((events[5] as { fields: { output?: string } }).fields.output).toBeUndefined();
    expect(events[6]).toMatchObject({ status: "completed", fields: { output: "a.txt" } });
    expect(events[7]).toMatchObject({
      kind: "todo_list",
      steps: [{ text: "step", status: "running" }],
    });
  });

  it("a declined tool ends declined without output; open items close when the turn is interrupted", async () => {
    const turn = new AcpTurn("s1", "/work");
    turn.startTool({
      toolCallId: "call-2",
      title: "rm",
      kind: "execute",
      rawInput: { command: "rm x" },
    });
    turn.markDeclined("call-2");
    turn.apply(
      {
        sessionUpdate: "tool_call_update",
        toolCallId: "call-2",
        status: "failed",
        content: [{ type: "content", content: { type: "text", text: "canceled by the user" } }],
      },
      undefined,
    );
    turn.apply(
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
      undefined,
    );
    turn.finish("interrupted");
    turn.finish("completed");
    const events = await drain(turn);
    const completed = events.filter((e) => e.type === "item.completed");
    expect(completed).toEqual([
      expect.objectContaining({
        itemRef: "call-2",
        status: "declined",
        fields: expect.not.objectContaining({ output: expect.anything() }),
      }),
      expect.objectContaining({
        kind: "reasoning",
        status: "interrupted",
        fields: { text: "hmm" },
      }),
    ]);
    expect(events.filter((e) => e.type === "turn.completed")).toEqual([
      { type: "turn.completed", nativeTurnRef: null, status: "interrupted" },
    ]);
  });
});
