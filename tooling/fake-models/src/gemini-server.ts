import { type PromptRoute, routedReply, takeQueued } from "./reply-script.ts";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, parseJson, readBody, sleep } from "./http-plumbing.ts";
import { createRequestLog } from "./request-log.ts";
import { geminiJsonAnswer } from "./gemini-json-answer.ts";
import {
  classifyGeminiRequest,
  type GeminiRecordedRequest,
  geminiLatestUserText,
  geminiRoute,
  geminiWantsJson,
} from "./gemini-requests.ts";
import {
  type GeminiErrorReply,
  type GeminiMessageReply,
  type GeminiReply,
  geminiTextReply,
} from "./gemini-script.ts";
import { encodeGeminiSse, geminiResponseJson, geminiStreamChunks } from "./gemini-sse.ts";

export type FakeGeminiServerOptions = {
  /** Replies for conversation requests, answered in order. */
  script?: GeminiReply[];
  /**
   * Consulted before the queue for every conversation request; return a reply to answer it
   * without consuming the queue.
   */
  respond?: (request: GeminiRecordedRequest) => GeminiReply | undefined;
  /** Answer when the queue is empty (default: a short text reply). */
  defaultReply?: GeminiReply;
  /**
   * Answer for auxiliary calls (never consumes the queue). Default: JSON shaped like the
   * requested schema for JSON calls, else a short text.
   */
  auxiliaryReply?: (request: GeminiRecordedRequest) => GeminiMessageReply;
};

export type FakeGeminiServer = {
  /** Base URL for `GOOGLE_GEMINI_BASE_URL`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  /** Every request received, in arrival order (all kinds; filter on `kind`). */
  requests: GeminiRecordedRequest[];
  /** The `conversation` requests only. */
  conversationRequests(): GeminiRecordedRequest[];
  enqueue(...replies: GeminiReply[]): void;
  /**
   * Answers every conversation request whose latest user text contains `match` (a string) or
   * matches it (a RegExp) with `reply`, ahead of the queue and without consuming it. Later routes
   * win over earlier ones.
   */
  answerPrompt(match: string | RegExp, reply: GeminiReply): void;
  /** Replies still queued. */
  pending(): number;
  /** Resolves with the first recorded request matching `predicate` (past or future). */
  waitForRequest(
    predicate: (request: GeminiRecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<GeminiRecordedRequest>;
  /** Resolves once `count` conversation requests have arrived, with the `count`-th one. */
  waitForConversationRequests(count: number, timeoutMs?: number): Promise<GeminiRecordedRequest>;
  close(): Promise<void>;
};

function writeError(res: ServerResponse, error: GeminiErrorReply): void {
  res.writeHead(error.status, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      error: {
        code: error.status,
        message: error.message,
        status: error.errorStatus ?? "UNKNOWN",
        ...(error.retryDelay === undefined
          ? {}
          : {
              details: [
                {
                  "@type": "type.googleapis.com/google.rpc.RetryInfo",
                  retryDelay: error.retryDelay,
                },
              ],
            }),
      },
    }),
  );
}

async function writeStream(
  res: ServerResponse,
  reply: GeminiMessageReply,
  model: string,
  record: GeminiRecordedRequest,
): Promise<void> {
  res.on("close", () => {
    if (!res.writableFinished) record.closedByClient = true;
  });
  if (reply.headerDelayMs) await sleep(reply.headerDelayMs);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const delay = reply.chunkDelayMs ?? 0;
  const chunks = geminiStreamChunks(reply, { model, responseId: randomUUID() });
  for (const [i, chunk] of chunks.entries()) {
    if (record.closedByClient || res.destroyed) return;
    res.write(encodeGeminiSse(chunk));
    if (delay > 0 && i < chunks.length - 1) await sleep(delay);
  }
  res.end();
}

function defaultAuxiliary(request: GeminiRecordedRequest): GeminiMessageReply {
  return geminiTextReply(
    geminiWantsJson(request.body) ? geminiJsonAnswer(request.body) : "Fake auxiliary reply",
  );
}

/**
 * A scripted Gemini API (`/v1beta/models/<model>:streamGenerateContent?alt=sse`,
 * `:generateContent`, `:countTokens`) on 127.0.0.1 for driving real clients (Gemini CLI) offline.
 * Conversation requests take replies from a FIFO queue; auxiliary calls get a fitting answer
 * without touching it; every request is recorded.
 */
export async function startFakeGeminiServer(
  options: FakeGeminiServerOptions = {},
): Promise<FakeGeminiServer> {
  const queue = [...(options.script ?? [])];
  const log = createRequestLog<GeminiRecordedRequest>("fake Gemini server");
  const requests = log.requests;
  const promptRoutes: PromptRoute<GeminiReply>[] = [];
  const defaultReply = options.defaultReply ?? geminiTextReply("OK");
  const auxiliaryReply = options.auxiliaryReply ?? defaultAuxiliary;

  function nextConversationReply(record: GeminiRecordedRequest): GeminiReply {
    const routed = options.respond?.(record);
    if (routed) return routed;
    return (
      routedReply(promptRoutes, geminiLatestUserText(record)) ?? takeQueued(queue, defaultReply)
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const body = parseJson(text);
    const route = geminiRoute(path);
    const record: GeminiRecordedRequest = {
      index: requests.length,
      method,
      path,
      model: route?.model ?? null,
      headers: { ...req.headers },
      body,
      kind: classifyGeminiRequest(method, path, body),
      receivedAt: Date.now(),
      closedByClient: false,
    };
    log.record(record);
    if (record.kind === "count_tokens") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ totalTokens: Math.ceil(text.length / 4) }));
      return;
    }
    if (record.kind === "other") {
      writeError(res, { kind: "error", status: 404, message: path, errorStatus: "NOT_FOUND" });
      return;
    }
    const reply =
      record.kind === "conversation" ? nextConversationReply(record) : auxiliaryReply(record);
    if (reply.kind === "error") {
      writeError(res, reply);
      return;
    }
    const model = record.model ?? "gemini-fake";
    if (route?.method === "streamGenerateContent") {
      await writeStream(res, reply, model, record);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(geminiResponseJson(reply, { model, responseId: randomUUID() })));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: 500, message: String(error), status: "INTERNAL" } }));
    });
  });
  const { port, url, close } = await listenOnLoopback(server);

  return {
    url,
    port,
    requests,
    conversationRequests: log.conversationRequests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    answerPrompt: (match, reply) => {
      promptRoutes.push({ match, reply });
    },
    pending: () => queue.length,
    waitForRequest: log.waitForRequest,
    waitForConversationRequests: log.waitForConversationRequests,
    close,
  };
}
