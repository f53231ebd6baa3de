import { afterEach, describe, expect, it } from "vitest";
import { startFaultProxy } from "./fault-proxy.ts";
import { responsesTextReply } from "./openai-responses-replies.ts";
import { startFakeResponsesServer } from "./openai-responses-server.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const upstream = await startFakeResponsesServer({
    defaultReply: responsesTextReply("a reply long enough to be cut in the middle of its stream"),
  });
  cleanups.push(() => upstream.close());
  const proxy = await startFaultProxy({ upstream: upstream.url });
  cleanups.push(() => proxy.close());
  const post = (signal?: AbortSignal) =>
    fetch(`${proxy.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", input: [], stream: true }),
      ...(signal ? { signal } : {}),
    });
  return { upstream, proxy, post };
}

describe("fault proxy in front of a fake model server", () => {
  it("passes requests through untouched when no fault is set", async () => {
    const { upstream, post, proxy } = await setup();
    const res = await post();
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("response.completed");
    expect(upstream.requests).toHaveLength(1);
    expect(proxy.applied).toEqual([]);
  });

  it("answers an injected status with a JSON error, without reaching the upstream", async () => {
    const { upstream, post, proxy } = await setup();
    proxy.inject({ kind: "status", status: 529 });
    const res = await post();
    expect(res.status).toBe(529);
    expect(await res.json()).toMatchObject({ error: { type: "overloaded_error" } });
    expect(upstream.requests).toHaveLength(0);
    // One fault answers one request: the next one passes.
    expect((await post()).status).toBe(200);
  });

  it("hangs: headers arrive, then nothing until the client gives up", async () => {
    const { post, proxy } = await setup();
    proxy.inject({ kind: "hang" });
    const controller = new AbortController();
    const res = await post(controller.signal);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const read = reader.read();
    const outcome = await Promise.race([
      read.then(() => "data"),
      new Promise((resolve) => setTimeout(() => resolve("silent"), 300)),
    ]);
    expect(outcome).toBe("silent");
    controller.abort();
    await read.catch(() => undefined);
  });

  it("cuts the stream after a number of bytes", async () => {
    const { post, proxy } = await setup();
    proxy.inject({ kind: "cut_stream", afterBytes: 120 });
    const res = await post();
    expect(res.status).toBe(200);
    const text = await res.text().catch((error: unknown) => `error: ${String(error)}`);
    expect(text).not.toContain("response.completed");
  });

  it("sends malformed SSE and delays the first byte when asked", async () => {
    const { post, proxy } = await setup();
    proxy.inject({ kind: "malformed_sse" }, { kind: "slow_first_byte", delayMs: 200 });
    expect(await (await post()).text()).toContain("{not json");
    const started = Date.now();
    const slow = await post();
    expect(await slow.text()).toContain("response.completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(proxy.applied.map((a) => a.fault.kind)).toEqual(["malformed_sse", "slow_first_byte"]);
  });

  it("lets a chooser pick faults per request until it is cleared", async () => {
    const { post, proxy } = await setup();
    let n = 0;
    proxy.setChooser(() => (++n % 2 === 1 ? { kind: "status", status: 500 } : null));
    expect((await post()).status).toBe(500);
    expect((await post()).status).toBe(200);
    proxy.setChooser(null);
    expect((await post()).status).toBe(200);
  });
});
