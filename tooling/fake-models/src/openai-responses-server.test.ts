import { afterEach, describe, expect, test } from "vitest";
import {
  execCommandReply,
  httpErrorReply,
  reasoningReply,
  responsesTextReply,
} from "./openai-responses-replies.ts";
import { conversationText, functionCallOutputs, messageTexts } from "./openai-responses-request.ts";
import { type FakeResponsesServer, startFakeResponsesServer } from "./openai-responses-server.ts";

let server: FakeResponsesServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type SseEvent = { event: string; data: Record<string, unknown> };

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${url}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

function parseSse(text: string): SseEvent[] {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event = /^event: (.+)$/m.exec(block)?.[1] ?? "";
      const data = JSON.parse(/^data: (.+)$/m.exec(block)?.[1] ?? "{}") as Record<string, unknown>;
      return { event, data };
    });
}

const input = [
  { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] },
  { type: "message", role: "assistant", content: [{ type: "output_text", text: "hello" }] },
  { type: "function_call_output", call_id: "c1", output: "ran" },
];

describe("fake OpenAI Responses server", () => {
  test("respond() answers from what the request holds, ahead of the queue, without using it", async () => {
    server = await startFakeResponsesServer({
      script: [responsesTextReply("queued")],
      respond: (body) =>
        functionCallOutputs(body).length > 0 ? responsesTextReply("tools answered") : undefined,
    });
    const texts = async (body: unknown) =>
      parseSse((await post(server!.url, body)).text)
        .filter((e) => e.event === "response.output_text.delta")
        .map((e) => e.data.delta)
        .join("");
    expect(await texts({ input })).toBe("tools answered");
    expect(await texts({ input: input.slice(0, 1) })).toBe("queued");
  });

  test("streams a text reply as created → added → deltas → done → completed", async () => {
    server = await startFakeResponsesServer({ script: [responsesTextReply("two words")] });
    const { status, text } = await post(server.url, { input });
    expect(status).toBe(200);
    const events = parseSse(text);
    expect(events.map((e) => e.event)).toEqual([
      "response.created",
      "response.output_item.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_item.done",
      "response.completed",
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    expect(events.at(-1)?.data).toMatchObject({
      response: { usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } },
    });
    expect(events[4]?.data).toMatchObject({
      item: {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "two words" }],
      },
    });
  });

  test("records parsed bodies and offers history helpers", async () => {
    server = await startFakeResponsesServer();
    await post(server.url, { model: "m", input });
    const [body] = await server.waitForRequests(1);
    if (!body) throw new Error("no body");
    expect(body.model).toBe("m");
    expect(messageTexts(body, "user")).toEqual(["hi"]);
    expect(conversationText(body)).toBe("hi\nhello");
    expect(functionCallOutputs(body)).toEqual([{ callId: "c1", output: "ran" }]);
  });

  test("serves exec_command calls, reasoning items, HTTP errors, then the default reply", async () => {
    server = await startFakeResponsesServer({
      script: [execCommandReply("ls -la", { callId: "call_7" }), reasoningReply(["think"], "done")],
    });
    server.enqueue(httpErrorReply(503, "overloaded"));

    const call = parseSse((await post(server.url, { input })).text);
    expect(call.find((e) => e.event === "response.output_item.done")?.data.item).toMatchObject({
      type: "function_call",
      name: "exec_command",
      call_id: "call_7",
      arguments: JSON.stringify({ cmd: "ls -la" }),
    });

    const reasoning = parseSse((await post(server.url, { input })).text);
    expect(reasoning.map((e) => e.event)).toContain("response.reasoning_summary_text.delta");

    const failed = await post(server.url, { input });
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.text)).toMatchObject({ error: { message: "overloaded" } });

    const fallback = parseSse((await post(server.url, { input })).text);
    expect(fallback.at(-2)?.data).toMatchObject({ item: { content: [{ text: "Done." }] } });
    expect(server.requests).toHaveLength(4);
  });

  test("rejects bodies without input and unknown routes, recording both", async () => {
    server = await startFakeResponsesServer();
    expect((await post(server.url, { nope: true })).status).toBe(400);
    expect((await fetch(`${server.url}/models`)).status).toBe(404);
    expect(server.requests).toHaveLength(0);
    expect(server.httpRequests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/models"]);
  });
});
