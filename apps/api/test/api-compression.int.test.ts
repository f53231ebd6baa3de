// Issue 34 (wire size): tRPC answers and the watch streams are compressed (br or gzip) for a
// client that accepts it, and a stream's frames still arrive as they happen.
import http from "node:http";
import { brotliDecompressSync, createGunzip, gunzipSync } from "node:zlib";
import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function threadWithRuns(runs: number) {
  const t = await startTestServer({
    orchestrator: (store, dataDir) =>
      createOrchestrator({
        store,
        adapters: { codex: createScriptedProvider({ provider: "codex" }) },
        dataDir,
        sessionIdleMs: 0,
      }),
  });
  servers.push(t);
  const { projectId } = await t.client.project.create.mutate({
    name: "wire",
    workspaceRoot: t.workspaceDir,
  });
  const { threadId } = await t.client.thread.create.mutate({ projectId });
  for (let i = 0; i < runs; i += 1) {
    const { runId } = await t.client.thread.sendMessage.mutate({ threadId, text: `run ${i}` });
    await t.orchestrator.waitForRun(runId);
  }
  return { t, threadId };
}

type Raw = { headers: http.IncomingHttpHeaders; body: Buffer };

/** A GET as sent, its body as received (no decoding). */
function get(url: string, acceptEncoding: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

const query = (base: string, path: string, input: unknown) =>
  `${base}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`;

describe("API responses compressed (issue 34)", () => {
  it("a thread's detail goes out brotli- or gzip-compressed as the client asks, the same answer in fewer bytes", async () => {
    const { t, threadId } = await threadWithRuns(5);
    const url = query(t.server.url, "thread.detail", { threadId });
    const plain = await get(url, "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const br = await get(url, "gzip, deflate, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const gzip = await get(url, "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const answer = (body: Buffer) => (JSON.parse(body.toString()) as { result: unknown }).result;
    expect(answer(brotliDecompressSync(br.body))).toEqual(answer(plain.body));
    expect(answer(gunzipSync(gzip.body))).toEqual(answer(plain.body));
  });

  it("a mutation's answer goes plain: a receipt of a few dozen bytes, answered at once instead of after a compressor's turn on a busy thread pool", async () => {
    const { t, threadId } = await threadWithRuns(1);
    const body = JSON.stringify({ threadId, text: "plain answer" });
    const raw = await new Promise<Raw>((resolve, reject) => {
      const request = http.request(`${t.server.url}/trpc/thread.sendMessage`, {
        method: "POST",
        headers: { "content-type": "application/json", "accept-encoding": "gzip, deflate, br" },
      });
      request.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      request.on("error", reject);
      request.end(body);
    });
    expect(raw.headers["content-encoding"]).toBeUndefined();
    const answer = JSON.parse(raw.body.toString()) as { result: { data: { runId: string } } };
    expect(answer.result.data.runId).toMatch(/^run_/);
  });

  it("the sidebar's watch and the log's watch go plain (a frame per event for every follower costs more to compress than it saves)", async () => {
    const { t } = await threadWithRuns(1);
    for (const path of ["thread.watchShells", "events.watch"]) {
      const request = http.get(query(t.server.url, path, {}), {
        headers: { "accept-encoding": "gzip, br" },
      });
      const response = await new Promise<http.IncomingMessage>((resolve) =>
        request.once("response", resolve),
      );
      request.destroy();
      expect(response.headers["content-type"]).toBe("text/event-stream");
      expect(response.headers["content-encoding"]).toBeUndefined();
    }
  });

  it("a watch stream is compressed and each event arrives while the stream stays open", async () => {
    const { t, threadId } = await threadWithRuns(1);
    const url = query(t.server.url, "thread.watchDetail", { threadId });
    const text: string[] = [];
    let seen = () => {};
    const request = http.get(url, { headers: { "accept-encoding": "gzip" } });
    const response = await new Promise<http.IncomingMessage>((resolve) =>
      request.once("response", resolve),
    );
    try {
      expect(response.headers["content-encoding"]).toBe("gzip");
      const gunzip = response.pipe(createGunzip());
      gunzip.on("data", (chunk: Buffer) => {
        text.push(chunk.toString());
        seen();
      });
      const until = async (what: RegExp) => {
        while (!what.test(text.join(""))) await new Promise<void>((resolve) => (seen = resolve));
      };
      await until(/"type":"snapshot"/);
      // A run sent now reaches the open stream as events, decompressed as they come.
      await t.client.thread.sendMessage.mutate({ threadId, text: "live" });
      await until(/"type":"RunQueued"/);
    } finally {
      request.destroy();
    }
  });
});
