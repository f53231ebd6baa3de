import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody, sleep } from "./http-plumbing.ts";
import { type FakeReply, responsesTextReply } from "./openai-responses-replies.ts";
import {
  isResponsesRequestBody,
  type RecordedHttpRequest,
  type ResponsesRequestBody,
} from "./openai-responses-request.ts";
import { encodeSseEvent, responseEvents } from "./openai-responses-sse.ts";

export type FakeResponsesServerOptions = {
  /** Replies served in order to successive `POST /v1/responses` (see `FakeReply.when`). */
  script?: readonly FakeReply[];
  /** Served when the script queue is empty. */
  defaultReply?: FakeReply;
  /**
   * Consulted before the queue for every request; a reply it returns answers that request
   * without consuming the queue (a model whose next call depends on what its tools answered).
   */
  respond?: (request: ResponsesRequestBody) => FakeReply | undefined;
};

export type FakeResponsesServer = {
  /** Base URL including `/v1`, ready for a provider's `base_url`. */
  url: string;
  port: number;
  /** Every `POST …/responses` body, parsed, in arrival order. */
  requests: ResponsesRequestBody[];
  /** Every HTTP request of any path, for diagnosing unexpected traffic. */
  httpRequests: RecordedHttpRequest[];
  enqueue(...replies: FakeReply[]): void;
  /** Resolves once at least `count` responses requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ResponsesRequestBody[]>;
  close(): Promise<void>;
};

const DEFAULT_REPLY = responsesTextReply("Done.");

export async function startFakeResponsesServer(
  options: FakeResponsesServerOptions = {},
): Promise<FakeResponsesServer> {
  const queue: FakeReply[] = [...(options.script ?? [])];
  const defaultReply = options.defaultReply ?? DEFAULT_REPLY;
  const requests: ResponsesRequestBody[] = [];
  const httpRequests: RecordedHttpRequest[] = [];
  const waiters = new Set<() => void>();
  let responseCounter = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = parseJson(raw);
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    httpRequests.push({ method: req.method ?? "GET", path, headers: req.headers, body });

    if (req.method !== "POST" || !path.endsWith("/responses")) {
      sendJson(res, 404, { error: { message: `fake server: no route for ${path}` } });
      return;
    }
    if (!isResponsesRequestBody(body)) {
      sendJson(res, 400, { error: { message: "fake server: body has no input array" } });
      return;
    }
    requests.push(body);
    for (const wake of waiters) wake();

    const index = queue.findIndex((queued) => queued.when === undefined || queued.when(body));
    const reply =
      options.respond?.(body) ??
      (index < 0 ? defaultReply : (queue.splice(index, 1)[0] ?? defaultReply));
    if (reply.kind === "http_error") {
      sendJson(res, reply.status, {
        error: { message: reply.message, type: "fake_error", code: String(reply.status) },
      });
      return;
    }
    responseCounter += 1;
    await streamResponse(res, reply, `resp_fake_${responseCounter}`);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    httpRequests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    waitForRequests: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          cleanup();
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`fake server: ${requests.length}/${count} requests after ${timeoutMs}ms`),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        // Slow streams would otherwise keep close() pending until they finish.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function streamResponse(
  res: ServerResponse,
  reply: FakeReply & { kind: "response" },
  responseId: string,
): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  let clientGone = false;
  res.on("close", () => {
    clientGone = true;
  });
  // Pauses start after the first delta, so a test can wait for visible streaming and then act
  // while the rest of the reply is still pending.
  let streaming = false;
  for (const event of responseEvents(reply, responseId)) {
    if (streaming && reply.eventDelayMs) await sleep(reply.eventDelayMs);
    // An interrupted client drops the connection; stop instead of writing into a dead socket.
    if (clientGone) return;
    res.write(encodeSseEvent(event));
    if (event.type.endsWith(".delta")) streaming = true;
  }
  res.end();
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

function parseJson(raw: string): unknown {
  if (raw === "") return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}
