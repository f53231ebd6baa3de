import type { SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import type { ToolPermissionRequest } from "./permissions.ts";
import { TurnEventMapper } from "./turn-event-mapper.ts";

let raw = 0;
/** Hand-built SDK messages: only the fields the mapper reads. */
function envelope(message: Record<string, unknown>) {
  return { message: message as unknown as SDKMessage, rawEventId: `r${++raw}`, receivedAt: 0 };
}

function toolUse(
  id: string,
  name: string,
  input: Record<string, unknown>,
  parent: string | null = null,
) {
  return envelope({
    type: "assistant",
    uuid: `u-${id}`,
    parent_tool_use_id: parent,
    message: { id: `msg-${id}`, content: [{ type: "tool_use", id, name, input }] },
  });
}

function request(toolUseId: string): ToolPermissionRequest {
  return {
    requestId: `req-${toolUseId}`,
    toolName: "Bash",
    input: { command: "touch x" },
    toolUseId,
    agentId: null,
    title: "Run touch x",
    description: null,
    blockedPath: null,
    decisionReason: null,
    suggestions: [],
    signal: new AbortController().signal,
  };
}

async function drain(mapper: TurnEventMapper): Promise<RuntimeEvent[]> {
  const events: RuntimeEvent[] = [];
  for await (const event of mapper.events) events.push(event);
  return events;
}

const done = {
  status: "completed" as const,
  error: null,
  result: null,
  lastAssistantUuid: "u",
  lastEntryUuid: "e",
};

describe("TurnEventMapper", () => {
  it("holds a permission request that arrives before its tool call, then emits it after the item", async () => {
    const mapper = new TurnEventMapper("/cwd");
    mapper.requestOpened(request("t1"));
    mapper.handle(toolUse("t1", "Bash", { command: "touch x" }));
    mapper.finish(done);
    const types = (await drain(mapper)).map((e) => e.type);
    expect(types).toEqual([
      "turn.started",
      "item.started",
      "request.opened",
      "item.completed",
      "turn.completed",
    ]);
  });

  it("nests subagent work, maps TodoWrite to a plan, and closes dangling items", async () => {
    const mapper = new TurnEventMapper("/cwd");
    mapper.handle(toolUse("agent1", "Agent", { description: "child", prompt: "p" }));
    mapper.handle(toolUse("b1", "Bash", { command: "ls" }, "agent1"));
    mapper.handle(toolUse("todo1", "TodoWrite", { todos: [{ content: "a", status: "pending" }] }));
    mapper.finish({ ...done, status: "interrupted" });
    const events = await drain(mapper);
    expect(events.find((e) => e.type === "item.started" && e.itemRef === "b1")).toMatchObject({
      kind: "command_execution",
      parentItemRef: "agent1",
      fields: { command: "ls", cwd: "/cwd" },
    });
    expect(events.find((e) => e.type === "plan.updated")).toMatchObject({
      kind: "todo_list",
      steps: [{ text: "a", status: "pending" }],
    });
    const closed = events.filter((e) => e.type === "item.completed");
    expect(closed.map((e) => e.type === "item.completed" && [e.itemRef, e.status])).toEqual([
      ["agent1", "interrupted"],
      ["b1", "interrupted"],
    ]);
    expect(events.at(-1)).toEqual({
      type: "turn.completed",
      nativeTurnRef: "e",
      status: "interrupted",
    });
  });

  it("completes a streamed reply when its stream ends, or interrupted when the interrupt marker comes first", async () => {
    const stream = (id: string, event: Record<string, unknown>) =>
      envelope({ type: "stream_event", parent_tool_use_id: null, event, uuid: `s-${id}` });
    const text = (id: string, value: string) =>
      envelope({
        type: "assistant",
        uuid: `u-${id}`,
        parent_tool_use_id: null,
        message: { id, content: [{ type: "text", text: value }] },
      });
    const streamed = (id: string) => [
      stream(id, { type: "message_start", message: { id } }),
      stream(id, { type: "content_block_start", index: 0, content_block: { type: "text" } }),
      stream(id, {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "ab" },
      }),
    ];
    const mapper = new TurnEventMapper("/cwd");
    for (const e of streamed("m1")) mapper.handle(e);
    mapper.handle(text("m1", "abc"));
    mapper.handle(stream("m1", { type: "content_block_stop", index: 0 }));
    for (const e of streamed("m2")) mapper.handle(e);
    mapper.handle(text("m2", "ab"));
    mapper.handle(
      envelope({
        type: "user",
        parent_tool_use_id: null,
        message: {
          role: "user",
          content: [{ type: "text", text: "[Request interrupted by user]" }],
        },
      }),
    );
    mapper.handle(stream("m2", { type: "content_block_stop", index: 0 }));
    mapper.finish({ ...done, status: "interrupted" });
    const closed = (await drain(mapper)).flatMap((e) =>
      e.type === "item.completed" ? [[e.itemRef, e.status, e.fields.text]] : [],
    );
    expect(closed).toEqual([
      ["m1:0", "completed", "abc"],
      ["m2:0", "interrupted", "ab"],
    ]);
  });

  it("T9: a finished sub-agent resumed by SendMessage is followed again under its first Agent call", async () => {
    const mapper = new TurnEventMapper("/cwd");
    mapper.handle(toolUse("send1", "SendMessage", { to: "agent-x", message: "more" }));
    mapper.handle(
      envelope({
        type: "system",
        subtype: "task_started",
        task_id: "agent-x",
        tool_use_id: "send1",
        task_type: "local_agent",
        is_backgrounded: true,
        description: "helper job",
        prompt: "more",
      }),
    );
    mapper.handle(
      envelope({
        type: "assistant",
        uuid: "u-c2",
        parent_tool_use_id: "agent0",
        agent_id: "agent-x",
        message: { id: "msg-c2", content: [{ type: "text", text: "CHILD-TWO" }] },
      }),
    );
    mapper.handle(
      envelope({
        type: "system",
        subtype: "task_notification",
        task_id: "agent-x",
        tool_use_id: "send1",
        status: "completed",
      }),
    );
    mapper.finish(done);
    const events = await drain(mapper);
    expect(events.find((e) => e.type === "subagent.started")).toMatchObject({
      childThreadRef: "agent0",
      parentItemRef: "send1",
      description: "more",
    });
    expect(
      events.find((e) => e.type === "item.completed" && e.itemRef === "msg-c2:0"),
    ).toMatchObject({ childThreadRef: "agent0", parentItemRef: "agent0" });
    expect(events.filter((e) => e.type === "subagent.completed")).toEqual([
      expect.objectContaining({ childThreadRef: "agent0", status: "completed" }),
    ]);
  });
});
