import { describe, expect, it, onTestFinished } from "vitest";
import {
  type FakeMessagesServer,
  type FakeMessagesServerOptions,
  startFakeMessagesServer,
} from "./anthropic-messages-server.ts";
import {
  anthropicErrorReply,
  anthropicSlowTextReply,
  anthropicTextReply,
  anthropicThinkingReply,
  anthropicToolUseReply,
} from "./anthropic-script.ts";

/** The running test's server, which `post` talks to; closed when the test finishes. */
let server: FakeMessagesServer;
async function serve(options?: FakeMessagesServerOptions): Promise<void> {
  const started = await startFakeMessagesServer(options);
  onTestFinished(() => started.close());
  server = started;
}

const tools = [{ name: "Bash", input_schema: { type: "object" } }];

function post(path: string, body: unknown) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function conversation(text: string, extra: Record<string, unknown> = {}) {
  return post("/v1/messages?beta=true", {
    model: "claude-test",
    stream: true,
    tools,
    messages: [{ role: "user", content: text }],
    ...extra,
  });
}

/** Parses an SSE body into `[event name, data]` pairs. */
async function sseEvents(response: Response): Promise<Array<[string, Record<string, unknown>]>> {
  const text = await response.text();
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim().length > 0)
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split("\n");
      return [
        (eventLine ?? "").replace("event: ", ""),
        JSON.parse((dataLine ?? "").replace("data: ", "")) as Record<string, unknown>,
      ];
    });
}

describe("fake Anthropic Messages server", () => {
  it("streams a text reply as Messages API SSE and records the request", async () => {
    await serve({
      script: [anthropicTextReply("hello", { chunkSize: 2 })],
    });
    const response = await conversation("hi");
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await sseEvents(response);
    expect(events.map(([name]) => name)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const deltas = events
      .filter(([name]) => name === "content_block_delta")
      .map(([, data]) => (data.delta as { text: string }).text);
    expect(deltas.join("")).toBe("hello");
    expect(events[6]?.[1]).toMatchObject({ delta: { stop_reason: "end_turn" } });
    expect(server.requests[0]).toMatchObject({ kind: "conversation", agent: "main" });
  });

  it("streams tool_use input as JSON deltas and thinking with a signature", async () => {
    await serve({
      script: [
        anthropicToolUseReply("Bash", { command: "ls" }, { id: "toolu_1" }),
        anthropicThinkingReply("pondering", "answer"),
      ],
    });
    const toolEvents = await sseEvents(await conversation("one"));
    expect(toolEvents[1]?.[1]).toMatchObject({
      content_block: { type: "tool_use", id: "toolu_1", name: "Bash" },
    });
    expect(toolEvents[2]?.[1]).toMatchObject({
      delta: { type: "input_json_delta", partial_json: '{"command":"ls"}' },
    });
    expect(toolEvents.at(-2)?.[1]).toMatchObject({ delta: { stop_reason: "tool_use" } });

    const thinking = await sseEvents(await conversation("two"));
    expect(thinking.map(([, d]) => (d.delta as { type?: string } | undefined)?.type)).toContain(
      "signature_delta",
    );
  });

  it("answers errors (repeated with times, with x-should-retry), then the queue, then the default", async () => {
    await serve({
      script: [
        anthropicErrorReply(500, "boom", { times: 2, shouldRetry: false }),
        anthropicTextReply("after"),
      ],
    });
    for (let i = 0; i < 2; i++) {
      const response = await conversation("x");
      expect(response.status).toBe(500);
      expect(response.headers.get("x-should-retry")).toBe("false");
      expect(await response.json()).toEqual({
        type: "error",
        error: { type: "api_error", message: "boom" },
      });
    }
    const after = await sseEvents(await conversation("x"));
    expect(JSON.stringify(after)).toContain("after");
    const fallback = await sseEvents(await conversation("x"));
    expect(JSON.stringify(fallback)).toContain('"text":"OK"');
  });

  it("answers a routed prompt every time, ahead of the queue, judged by the latest user message", async () => {
    await serve({ script: [anthropicTextReply("queued")] });
    server.answerPrompt("POISON", anthropicErrorReply(400, "refused", { shouldRetry: false }));
    server.answerPrompt(/^fixed$/, anthropicTextReply("routed"));
    for (let i = 0; i < 2; i++) {
      expect((await conversation("a POISON prompt")).status).toBe(400);
    }
    // Merged into one user message (as Claude Code does with a failed prompt), it still fails.
    const merged = await conversation("x", {
      messages: [
        { role: "user", content: "hello" },
        { role: "assistant", content: "hi" },
        {
          role: "user",
          content: [
            { type: "text", text: "<system-reminder>ignored</system-reminder>" },
            { type: "text", text: "a POISON prompt" },
            { type: "text", text: "next" },
          ],
        },
      ],
    });
    expect(merged.status).toBe(400);
    // An earlier message holding it does not: only the prompt being answered counts.
    const later = await conversation("x", {
      messages: [
        { role: "user", content: "a POISON prompt" },
        { role: "assistant", content: "hi" },
        { role: "user", content: "next" },
      ],
    });
    expect(JSON.stringify(await sseEvents(later))).toContain('"text":"queued"');
    expect(JSON.stringify(await sseEvents(await conversation("fixed")))).toContain("routed");
    expect(server.pending()).toBe(0);
  });

  it("keeps auxiliary calls and token counts off the queue", async () => {
    await serve({ script: [anthropicTextReply("queued")] });
    const aux = await post("/v1/messages", {
      model: "m",
      messages: [{ role: "user", content: "t" }],
    });
    expect(((await aux.json()) as { type: string }).type).toBe("message");
    const count = await post("/v1/messages/count_tokens", { messages: [] });
    expect(((await count.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect(server.pending()).toBe(1);
    expect(server.requests.map((r) => r.kind)).toEqual(["auxiliary", "count_tokens"]);
    expect(server.conversationRequests()).toEqual([]);
  });

  it("answers subagent requests from their own queue", async () => {
    await serve({
      script: [anthropicTextReply("main")],
      subagentScript: [anthropicTextReply("child")],
    });
    const child = await conversation("x", {
      system: [{ type: "text", text: "x-anthropic-billing-header: cc_is_subagent=true;" }],
    });
    expect(JSON.stringify(await sseEvents(child))).toContain('"text":"child"');
    expect(JSON.stringify(await sseEvents(await conversation("y")))).toContain('"text":"main"');
    expect(server.requests.map((r) => r.agent)).toEqual(["subagent", "main"]);
  });

  it("notices a client hanging up mid-stream, and waits for requests", async () => {
    await serve({
      script: [anthropicSlowTextReply("z".repeat(100), 20)],
    });
    const waiting = server.waitForConversationRequests(1);
    const controller = new AbortController();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({ stream: true, tools, messages: [] }),
      signal: controller.signal,
    });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    const request = await waiting;
    await expect.poll(() => request.closedByClient).toBe(true);
  });
});
