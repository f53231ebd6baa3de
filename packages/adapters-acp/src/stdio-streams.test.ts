import { PassThrough } from "node:stream";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { pipeSink, pipeSource } from "./stdio-streams.ts";

describe("the agent's stdio as ACP byte streams", () => {
  it("carries frames both ways, split and joined across chunks, and ends when the pipe ends", async () => {
    const toAgent = new PassThrough();
    const fromAgent = new PassThrough();
    const stream = ndJsonStream(pipeSink(toAgent), pipeSource(fromAgent));
    const written: string[] = [];
    toAgent.on("data", (chunk: Buffer) => written.push(chunk.toString("utf8")));

    const writer = stream.writable.getWriter();
    await writer.write({ jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} });
    expect(written.join("")).toBe(
      '{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{}}\n',
    );

    fromAgent.write('{"jsonrpc":"2.0","id":1,"res');
    fromAgent.write('ult":{"stopReason":"end_turn"}}\n{"jsonrpc":"2.0","method":"n"}\n');
    fromAgent.end();
    const read: unknown[] = [];
    for await (const message of stream.readable) read.push(message);
    expect(read).toEqual([
      { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn" } },
      { jsonrpc: "2.0", method: "n" },
    ]);
  });

  it("pauses the pipe while the reader is behind and resumes it when read", async () => {
    const fromAgent = new PassThrough();
    const source = pipeSource(fromAgent);
    for (let i = 0; i < 40; i++) fromAgent.write(`chunk ${i}\n`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fromAgent.isPaused()).toBe(true);
    fromAgent.end();
    const reader = source.getReader();
    let chunks = 0;
    while (!(await reader.read()).done) chunks += 1;
    expect(chunks).toBe(40);
    expect(fromAgent.isPaused()).toBe(false);
  });

  it("a write to a closed pipe fails instead of hanging", async () => {
    const toAgent = new PassThrough();
    toAgent.destroy();
    const writer = pipeSink(toAgent).getWriter();
    await expect(writer.write(new Uint8Array([1]))).rejects.toThrow();
  });
});
