import type { ThreadId } from "@skein/domain";
import { createTRPCClient } from "@trpc/client";
import { FetchEventSource, type FetchEventSourceEvent } from "@skein/client";
import { sseSubscriptionLink } from "@skein/client";
import { type AppRouter, appRouter } from "@skein/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recorder } from "./support/recorder.ts";
import { type ScriptedTestServer, startScriptedServer } from "./support/scripted-server.ts";

// Token scope over a real server, for every procedure of the router: the URL token
// (`connectionParams`, for browsers' EventSource) opens subscriptions only; queries and mutations
// need the Authorization header; a subscription without a valid token is HTTP 401 before any
// stream starts.

const TOKEN = "scope-token-0123456789abcdef";
let t: ScriptedTestServer;
let threadId: ThreadId;

const PROCEDURES = Object.entries(appRouter._def.procedures).map(
  ([path, procedure]) => [path, (procedure as { _def: { type: string } })._def.type] as const,
);
const CALLS = PROCEDURES.filter(([, type]) => type !== "subscription");
const SUBSCRIPTIONS = PROCEDURES.filter(([, type]) => type === "subscription");

beforeAll(async () => {
  t = await startScriptedServer({ token: TOKEN });
  const { projectId } = await t.client.project.create.mutate({
    name: "p",
    workspaceRoot: t.workspaceDir,
  });
  ({ threadId } = await t.client.thread.create.mutate({ projectId }));
});
afterAll(async () => {
  await t.close();
});

const urlToken = (token: string) =>
  `connectionParams=${encodeURIComponent(JSON.stringify({ token }))}`;

/** A query as GET, a mutation as POST, the way the typed client sends them. */
function call(
  path: string,
  type: string,
  options: { query?: string; headers?: Record<string, string> },
) {
  const url = `${t.server.url}/trpc/${path}${options.query ? `?${options.query}` : ""}`;
  return type === "query"
    ? fetch(url, { headers: options.headers ?? {} })
    : fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...options.headers },
        body: "{}",
      });
}

/** Valid input for each subscription, so a refusal can only come from the token. */
function subscriptionInput(path: string): string {
  const input =
    path === "thread.watchDetail" ||
    path === "thread.watchGraph" ||
    path === "thread.watchProviderSessions"
      ? { threadId }
      : path === "thread.watchOverlaps"
        ? { threadIds: [threadId] }
        : path === "events.watchRaw"
          ? { threadId, runId: "run_scope" }
          : {};
  return `input=${encodeURIComponent(JSON.stringify(input))}`;
}

async function firstChunk(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

describe("token scope (issue 14 item 6)", () => {
  it("covers the whole router: queries, mutations and subscriptions", () => {
    const types = new Set(PROCEDURES.map(([, type]) => type));
    expect(types).toEqual(new Set(["query", "mutation", "subscription"]));
    expect(SUBSCRIPTIONS.map(([path]) => path).sort()).toEqual([
      "events.watch",
      "events.watchRaw",
      "request.watchPending",
      "thread.watchDetail",
      "thread.watchGraph",
      "thread.watchOverlaps",
      "thread.watchProviderSessions",
      "thread.watchShells",
    ]);
  });

  it.each(CALLS)(
    "%s (%s): the URL token alone is 401 UNAUTHORIZED, nothing appended",
    async (path, type) => {
      const head = await t.store.headSequence();
      const res = await call(path, type, { query: urlToken(TOKEN) });
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error: { data: { code: string } } };
      expect(body.error.data.code).toBe("UNAUTHORIZED");
      expect(await t.store.headSequence()).toBe(head);

      // Control: the same call with the header passes authentication (it may fail on its input).
      const authed = await call(path, type, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(authed.status).not.toBe(401);
      await authed.body?.cancel();
    },
  );

  it("a batch of queries with the URL token alone is 401 too", async () => {
    const res = await fetch(
      `${t.server.url}/trpc/health,thread.shells?batch=1&input=%7B%7D&${urlToken(TOKEN)}`,
    );
    expect(res.status).toBe(401);
    await res.body?.cancel();
  });

  it.each(SUBSCRIPTIONS)("%s: the URL token opens the stream", async (path) => {
    const res = await fetch(
      `${t.server.url}/trpc/${path}?${subscriptionInput(path)}&${urlToken(TOKEN)}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await firstChunk(res)).toContain("event: connected");
  });

  it.each(SUBSCRIPTIONS)("%s: the header opens the stream too", async (path) => {
    const res = await fetch(`${t.server.url}/trpc/${path}?${subscriptionInput(path)}`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(await firstChunk(res)).toContain("event: connected");
  });

  it.each(
    SUBSCRIPTIONS.flatMap(([path]) => [
      [path, "no token", ""],
      [path, "a wrong URL token", urlToken(`${TOKEN}x`)],
      [path, "a malformed connectionParams", "connectionParams=%7Bnope"],
    ]),
  )("%s with %s: HTTP 401 before any stream", async (path, _case, query) => {
    const res = await fetch(
      `${t.server.url}/trpc/${path}?${subscriptionInput(path)}${query ? `&${query}` : ""}`,
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const body = (await res.json()) as { error: { data: { code: string } } };
    expect(body.error.data.code).toBe("UNAUTHORIZED");
  });

  it.each(SUBSCRIPTIONS)(
    "issue 35: %s spelled with a trailing slash or a leading one is 401 without a token too",
    async (path) => {
      for (const spelled of [`${path}/`, `${path}//`, `/${path}`]) {
        const res = await fetch(`${t.server.url}/trpc/${spelled}?${subscriptionInput(path)}`);
        expect(res.status, spelled).toBe(401);
        await res.body?.cancel();
      }
    },
  );

  it("a browser's EventSource, which hides the 401, still reports UNAUTHORIZED", async () => {
    // Like the DOM's EventSource: gives up (CLOSED) on a refusal without saying why.
    class OpaqueEventSource extends FetchEventSource {
      override addEventListener(type: string, listener: (event: FetchEventSourceEvent) => void) {
        super.addEventListener(type, (event) => listener({ type: event.type }));
      }
    }
    const client = createTRPCClient<AppRouter>({
      links: [
        sseSubscriptionLink({
          url: `${t.server.url}/trpc`,
          connectionParams: { token: `${TOKEN}x` },
          EventSource: OpaqueEventSource,
        }),
      ],
    });
    const recorder = new Recorder<unknown>();
    const sub = client.thread.watchShells.subscribe({}, recorder.handlers);
    await expect(recorder.until(() => false, 5_000, "an error")).rejects.toMatchObject({
      data: { code: "UNAUTHORIZED", httpStatus: 401 },
    });
    sub.unsubscribe();
  });
});
