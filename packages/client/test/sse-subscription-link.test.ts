import http from "node:http";
import type { AddressInfo } from "node:net";
import { createTRPCClient, type TRPCClientError } from "@trpc/client";
import { initTRPC, tracked } from "@trpc/server";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { sseSubscriptionLink } from "../src/event-source/sse-subscription-link.ts";

// Only the client's types come from this router; the scripted server below answers by hand.
const t = initTRPC.create();
const router = t.router({
  watch: t.procedure
    .input(z.object({ from: z.number(), lastEventId: z.string().nullish() }))
    .subscription(async function* () {
      yield tracked("0", { n: 0 });
    }),
});

type Script = (res: http.ServerResponse, input: Record<string, unknown>, attempt: number) => void;

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An SSE endpoint that plays `script` per connection and records the inputs it was sent. */
async function scripted(script: Script) {
  const inputs: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const input = JSON.parse(url.searchParams.get("input") ?? "{}") as Record<string, unknown>;
    inputs.push(input);
    res.writeHead(200, { "content-type": "text/event-stream" });
    script(res, input, inputs.length);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const client = createTRPCClient<typeof router>({
    links: [sseSubscriptionLink({ url: `http://127.0.0.1:${port}/trpc` })],
  });
  return { client, inputs };
}

const connected = (client: object = {}) => `event: connected\ndata: ${JSON.stringify(client)}\n\n`;
const message = (id: number) => `data: ${JSON.stringify({ n: id })}\nid: ${id}\n\n`;
const serializedError = (code: number, text: string) =>
  `event: serialized-error\ndata: ${JSON.stringify({ code, message: text, data: {} })}\n\n`;

function collect(client: Awaited<ReturnType<typeof scripted>>["client"]) {
  const got: { id: string; n: number }[] = [];
  const states: string[] = [];
  let error: TRPCClientError<typeof router> | null = null;
  let completed = false;
  const sub = client.watch.subscribe(
    { from: 1 },
    {
      onData: ({ id, data }) => got.push({ id, n: data.n }),
      onError: (e) => {
        error = e;
      },
      onComplete: () => {
        completed = true;
      },
      onConnectionStateChange: (s) => states.push(s.state),
    },
  );
  return {
    got,
    states,
    sub,
    error: () => error,
    completed: () => completed,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("sseSubscriptionLink (the typed client's SSE transport)", () => {
  it("delivers tracked messages with their ids and ends on the server's return", async () => {
    const { client } = await scripted((res) => {
      res.write(connected() + message(1) + message(2));
      res.end("event: return\ndata: \n\n");
    });
    const watch = collect(client);
    await until(watch.completed, "completion");
    expect(watch.got).toEqual([
      { id: "1", n: 1 },
      { id: "2", n: 2 },
    ]);
    expect(watch.states).toContain("pending");
    expect(watch.error()).toBeNull();
  });

  it("a retryable server error reopens the stream from the last tracked id", async () => {
    const { client, inputs } = await scripted((res, _input, attempt) => {
      if (attempt === 1) {
        res.end(connected() + message(1) + message(2) + serializedError(-32603, "feed closed"));
      } else {
        res.end(`${connected()}${message(3)}event: return\ndata: \n\n`);
      }
    });
    const watch = collect(client);
    await until(watch.completed, "completion");
    expect(watch.got.map((m) => m.id)).toEqual(["1", "2", "3"]);
    expect(inputs).toEqual([{ from: 1 }, { from: 1, lastEventId: "2" }]);
    expect(watch.error()).toBeNull();
  });

  it("any other server error ends the subscription with its code, without reconnecting", async () => {
    const { client, inputs } = await scripted((res) => {
      res.end(connected() + serializedError(-32001, "missing token"));
    });
    const watch = collect(client);
    await until(() => watch.error() !== null, "the error");
    expect(watch.error()?.data).toBeDefined();
    expect(watch.error()?.message).toBe("missing token");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(inputs).toHaveLength(1);
  });

  it("a silent connection is reopened after the server's inactivity limit", async () => {
    const { client, inputs } = await scripted((res, _input, attempt) => {
      if (attempt === 1) res.write(connected({ reconnectAfterInactivityMs: 150 }) + message(5));
      else res.end(`${connected()}${message(6)}event: return\ndata: \n\n`);
    });
    const watch = collect(client);
    await until(watch.completed, "completion");
    expect(watch.got.map((m) => m.id)).toEqual(["5", "6"]);
    expect(inputs[1]).toEqual({ from: 1, lastEventId: "5" });
    expect(watch.states).toContain("connecting");
  });

  it("unsubscribing closes the connection", async () => {
    let closed = false;
    const { client } = await scripted((res) => {
      res.write(connected() + message(1));
      res.on("close", () => {
        closed = true;
      });
    });
    const watch = collect(client);
    await until(() => watch.got.length === 1, "the first message");
    watch.sub.unsubscribe();
    await until(() => closed, "the server to see the close");
  });
});
