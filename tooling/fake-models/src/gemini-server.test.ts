import { describe, expect, it, onTestFinished } from "vitest";
import {
  geminiFunctionResponses,
  geminiLatestUserText,
  geminiToolNames,
} from "./gemini-requests.ts";
import {
  geminiErrorReply,
  geminiShellReply,
  geminiSlowTextReply,
  geminiTextReply,
  geminiThoughtReply,
} from "./gemini-script.ts";
import {
  type FakeGeminiServer,
  type FakeGeminiServerOptions,
  startFakeGeminiServer,
} from "./gemini-server.ts";

/** The running test's server, which `post` talks to; closed when the test finishes. */
let server: FakeGeminiServer;
async function serve(options?: FakeGeminiServerOptions): Promise<void> {
  const started = await startFakeGeminiServer(options);
  onTestFinished(() => started.close());
  server = started;
}

const tools = [{ functionDeclarations: [{ name: "run_shell_command", parameters: {} }] }];

function post(path: string, body: unknown, signal?: AbortSignal) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal,
  });
}

function conversation(text: string, extra: Record<string, unknown> = {}) {
  return post("/v1beta/models/gemini-test:streamGenerateContent?alt=sse", {
    contents: [{ role: "user", parts: [{ text }] }],
    tools,
    ...extra,
  });
}

type Chunk = {
  candidates: Array<{ content: { parts: Array<Record<string, unknown>> }; finishReason?: string }>;
  usageMetadata?: Record<string, number>;
  modelVersion: string;
};

async function sseChunks(response: Response): Promise<Chunk[]> {
  const text = await response.text();
  return text
    .split("\r\n\r\n")
    .filter((c) => c.trim().length > 0)
    .map((c) => JSON.parse(c.replace(/^data: /, "")) as Chunk);
}

const partsOf = (chunks: Chunk[]) => chunks.flatMap((c) => c.candidates[0]?.content.parts ?? []);

describe("fake Gemini API server", () => {
  it("streams text as SSE chunks, finishes with STOP and usage on the last chunk, and records the request", async () => {
    await serve({
      script: [
        geminiTextReply("hello", {
          chunkSize: 2,
          usage: { promptTokens: 30, candidatesTokens: 4 },
        }),
      ],
    });
    const response = await conversation("hi");
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const chunks = await sseChunks(response);
    expect(partsOf(chunks).map((p) => p.text)).toEqual(["he", "ll", "o"]);
    expect(chunks.map((c) => c.candidates[0]?.finishReason)).toEqual([
      undefined,
      undefined,
      "STOP",
    ]);
    expect(chunks.at(-1)?.usageMetadata).toEqual({
      promptTokenCount: 30,
      candidatesTokenCount: 4,
      totalTokenCount: 34,
    });
    expect(chunks[0]?.usageMetadata).toBeUndefined();
    expect(chunks[0]?.modelVersion).toBe("gemini-test");
    expect(server.requests[0]).toMatchObject({ kind: "conversation", model: "gemini-test" });
    const [request] = server.requests;
    if (!request) throw new Error("no request recorded");
    expect(geminiLatestUserText(request)).toBe("hi");
    expect(geminiToolNames(request)).toEqual(["run_shell_command"]);
  });

  it("streams a function call whole and thoughts marked as thoughts", async () => {
    await serve({
      script: [geminiShellReply("ls -la"), geminiThoughtReply("pondering", "answer")],
    });
    const call = partsOf(await sseChunks(await conversation("one")));
    expect(call).toEqual([
      {
        functionCall: {
          name: "run_shell_command",
          args: { command: "ls -la", description: "Run a command" },
        },
      },
    ]);
    const thought = partsOf(await sseChunks(await conversation("two")));
    expect(thought).toEqual([{ text: "pondering", thought: true }, { text: "answer" }]);
  });

  it("reads function responses back out of the history a client sends", async () => {
    await serve();
    await (
      await conversation("x", {
        contents: [
          { role: "user", parts: [{ text: "run it" }] },
          { role: "model", parts: [{ functionCall: { name: "run_shell_command", args: {} } }] },
          {
            role: "user",
            parts: [
              {
                functionResponse: {
                  id: "c1",
                  name: "run_shell_command",
                  response: { output: "RAN" },
                },
              },
            ],
          },
        ],
      })
    ).text();
    const [request] = server.conversationRequests();
    if (!request) throw new Error("no request recorded");
    expect(geminiFunctionResponses(request)).toEqual([
      { name: "run_shell_command", id: "c1", text: "RAN" },
    ]);
    expect(geminiLatestUserText(request)).toBe("run it");
  });

  it("answers errors in Google's shape (repeated with times), then the queue, then the default", async () => {
    await serve({
      script: [geminiErrorReply(500, "boom", { times: 2 }), geminiTextReply("after")],
    });
    for (let i = 0; i < 2; i++) {
      const response = await conversation("x");
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: { code: 500, message: "boom", status: "INTERNAL" },
      });
    }
    expect(JSON.stringify(await sseChunks(await conversation("x")))).toContain('"text":"after"');
    expect(JSON.stringify(await sseChunks(await conversation("x")))).toContain('"text":"OK"');
  });

  it("answers a routed prompt every time, ahead of the queue", async () => {
    await serve({ script: [geminiTextReply("queued")] });
    server.answerPrompt("POISON", geminiErrorReply(400, "refused"));
    expect((await conversation("a POISON prompt")).status).toBe(400);
    expect((await conversation("a POISON prompt")).status).toBe(400);
    expect(JSON.stringify(await sseChunks(await conversation("fine")))).toContain("queued");
    expect(server.pending()).toBe(0);
  });

  it("keeps JSON, non-streaming and token-count calls off the queue, answering JSON by its schema", async () => {
    await serve({ script: [geminiTextReply("queued")] });
    const routed = await post("/v1beta/models/flash-lite:generateContent", {
      contents: [{ role: "user", parts: [{ text: "classify" }] }],
      generationConfig: {
        responseMimeType: "application/json",
        responseJsonSchema: {
          type: "object",
          properties: {
            reasoning: { type: "string" },
            next_speaker: { type: "string", enum: ["model", "user"] },
            score: { type: "integer", minimum: 3 },
          },
        },
      },
    });
    const body = (await routed.json()) as Chunk;
    const answer = JSON.parse(String(body.candidates[0]?.content.parts[0]?.text));
    expect(answer).toEqual({ reasoning: "fake", next_speaker: "user", score: 3 });
    const unschemed = await post("/v1beta/models/flash-lite:generateContent", {
      contents: [],
      generationConfig: { responseMimeType: "application/json" },
    });
    const routing = JSON.parse(
      String(((await unschemed.json()) as Chunk).candidates[0]?.content.parts[0]?.text),
    );
    expect(routing).toMatchObject({ model_choice: "flash", complexity_score: 10 });
    const count = await post("/v1beta/models/m:countTokens", { contents: [] });
    expect(((await count.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
    expect((await post("/v1beta/nothing", {})).status).toBe(404);
    expect(server.requests.map((r) => r.kind)).toEqual([
      "auxiliary",
      "auxiliary",
      "count_tokens",
      "other",
    ]);
    expect(server.pending()).toBe(1);
  });

  it("streams slowly, notices a client hanging up mid-stream, and waits for requests", async () => {
    await serve({ script: [geminiSlowTextReply("z".repeat(100), 20)] });
    const waiting = server.waitForConversationRequests(1);
    const controller = new AbortController();
    const response = await post(
      "/v1beta/models/m:streamGenerateContent?alt=sse",
      { contents: [{ role: "user", parts: [{ text: "abort me" }] }], tools },
      controller.signal,
    );
    const reader = response.body?.getReader();
    const first = new TextDecoder().decode((await reader?.read())?.value);
    expect(first).toContain('"text":"z"');
    expect(first).not.toContain("STOP");
    controller.abort();
    const request = await waiting;
    await expect.poll(() => request.closedByClient).toBe(true);
  });
});
