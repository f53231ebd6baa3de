import type { ProjectId } from "@skein/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { agentHeader } from "../src/http/agent-header.ts";
import { refusal } from "./support/errors.ts";
import { connectMcp } from "./support/mcp-client.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";
import { workspaceProject } from "./support/test-server.ts";

// Who may call /mcp (the API's token, in the header only) and who an agent is: its MCP
// clientInfo there, the x-skein-agent header over HTTP.

const TOKEN = "mcp-auth-token-0123456789abcdef";
let t: ScriptedTestServer;
let projectId: ProjectId;

beforeAll(async () => {
  t = await startScriptedServer({ token: TOKEN });
  projectId = await workspaceProject(t, "auth");
});
afterAll(async () => {
  await t?.close();
});

const head = () => t.store.headSequence();

describe("B19: /mcp takes the API's token, in the Authorization header only", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "intruder", version: "1" },
    },
  };
  const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
  const auth = { authorization: `Bearer ${TOKEN}` };
  /** A raw POST to /mcp (`query` after the path), JSON-RPC `body` unless a string. */
  const post = (query: string, headers: Record<string, string>, body: unknown = initialize) =>
    fetch(`${t.server.url}/mcp${query}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("B19: no token, a wrong token and a token in the URL are refused with 401; nothing is appended", async () => {
    const before = await head();
    const urlToken = encodeURIComponent(JSON.stringify({ token: TOKEN }));
    const attempts = [
      post("", {}),
      post("", { authorization: "Bearer wrong-token" }),
      post(`?token=${TOKEN}`, {}),
      post(`?connectionParams=${urlToken}`, {}),
      post(`?access_token=${TOKEN}`, { authorization: "Basic abc" }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="skein"');
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/Authorization: Bearer/);
    }
    await expect(connectMcp(t.server.url, { token: "wrong-token" })).rejects.toThrow();
    const sessions = await post("", auth);
    expect(sessions.status).toBe(200);
    expect(sessions.headers.get("mcp-session-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await head()).toBe(before);
  });

  it("B19: a request outside any session is refused; an unknown session is 404", async () => {
    expect((await post("", auth, list)).status).toBe(400);
    const unknown = { ...auth, "mcp-session-id": "00000000-0000-0000-0000-000000000000" };
    expect((await post("", unknown, list)).status).toBe(404);
    expect((await post("", auth, "{not json")).status).toBe(400);
  });
});

describe("B19: over HTTP, a client names the agent it acts for", () => {
  it("B19: x-skein-agent (percent-encoded) starts threads as that agent; a bad name is refused", async () => {
    const named = (name: string) =>
      createSkeinClient({ url: t.server.url, token: TOKEN, headers: agentHeader(name) });
    const { threadId } = await named("Zéd ✨").thread.create.mutate({ projectId });
    const [created] = await t.store.readStream(`thread-${threadId}`);
    expect(created?.data).toMatchObject({
      thread: { createdBy: "agent", agentName: "Zéd ✨" },
    });
    const before = await head();
    const bad = await refusal(named("bad\u0000name").thread.create.mutate({ projectId }));
    expect(bad).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^agent name: /),
    });
    expect(await head()).toBe(before);
  });
});
