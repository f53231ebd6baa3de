import { type PromptRoute, routedReply, takeQueued } from "./reply-script.ts";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, parseJson, readBody, sleep } from "./http-plumbing.ts";
import { createRequestLog } from "./request-log.ts";
import {
  anthropicAgentOf,
  anthropicLatestUserText,
  classifyAnthropicRequest,
  type AnthropicRecordedRequest,
} from "./anthropic-requests.ts";
import {
  type AnthropicErrorReply,
  type AnthropicMessageReply,
  type AnthropicReply,
  anthropicTextReply,
} from "./anthropic-script.ts";
import {
  encodeAnthropicSse,
  type AnthropicMessageIdentity,
  anthropicMessageJson,
  anthropicStreamEvents,
} from "./anthropic-sse.ts";

export type FakeMessagesServerOptions = {
  /** Replies for main-loop conversation requests, answered in order. */
  script?: AnthropicReply[];
  /**
   * Replies for subagent conversation requests, answered in order. Subagents get their own queue
   * because a background subagent's requests interleave with the parent's.
   */
  subagentScript?: AnthropicReply[];
  /**
   * Consulted before the queues for every conversation request; return a reply to answer it
   * without consuming a queue.
   */
  respond?: (request: AnthropicRecordedRequest) => AnthropicReply | undefined;
  /** Answer when the queue is empty (default: a short text reply). */
  defaultReply?: AnthropicReply;
  /** Answer for auxiliary (non-conversation) `/v1/messages` calls; never consumes the queue. */
  auxiliaryReply?: AnthropicMessageReply;
  /** Model name reported in responses when the request names none. */
  model?: string;
};

export type FakeMessagesServer = {
  /** Base URL for `ANTHROPIC_BASE_URL`, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  /** Every request received, in arrival order (all kinds; filter on `kind`). */
  requests: AnthropicRecordedRequest[];
  /** The `conversation` requests only. */
  conversationRequests(): AnthropicRecordedRequest[];
  enqueue(...replies: AnthropicReply[]): void;
  /**
   * Answers every main-loop request whose latest user message contains `match` (a string) or
   * matches it (a RegExp) with `reply`, ahead of the queue and without consuming it, for as long
   * as the server runs: a prompt the model always refuses, or a reply tied to a prompt rather
   * than to the order of requests. Later routes win over earlier ones.
   */
  answerPrompt(match: string | RegExp, reply: AnthropicReply): void;
  enqueueSubagent(...replies: AnthropicReply[]): void;
  /** Replies still queued for the main loop. */
  pending(): number;
  /** Resolves with the first recorded request matching `predicate` (past or future). */
  waitForRequest(
    predicate: (request: AnthropicRecordedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<AnthropicRecordedRequest>;
  /** Resolves once `count` conversation requests have arrived, with the `count`-th one. */
  waitForConversationRequests(count: number, timeoutMs?: number): Promise<AnthropicRecordedRequest>;
  close(): Promise<void>;
};

function requestedModel(body: unknown, fallback: string): string {
  if (typeof body === "object" && body !== null && "model" in body) {
    const model = (body as { model: unknown }).model;
    if (typeof model === "string") return model;
  }
  return fallback;
}

function identityFor(message: AnthropicMessageReply, model: string): AnthropicMessageIdentity {
  return {
    messageId: `msg_fake_${randomUUID().replaceAll("-", "")}`,
    model,
    toolUseIds: message.blocks
      .filter((b) => b.type === "tool_use")
      .map((b) => b.id ?? `toolu_fake_${randomUUID().replaceAll("-", "").slice(0, 20)}`),
  };
}

function writeError(res: ServerResponse, error: AnthropicErrorReply): void {
  const body = {
    type: "error",
    error: { type: error.errorType ?? "api_error", message: error.message },
  };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "request-id": `req_fake_${randomUUID()}`,
  };
  if (error.shouldRetry !== undefined) headers["x-should-retry"] = String(error.shouldRetry);
  res.writeHead(error.status, headers);
  res.end(JSON.stringify(body));
}

async function writeStream(
  res: ServerResponse,
  message: AnthropicMessageReply,
  identity: AnthropicMessageIdentity,
  record: AnthropicRecordedRequest,
): Promise<void> {
  res.on("close", () => {
    if (!res.writableFinished) record.closedByClient = true;
  });
  if (message.headerDelayMs) await sleep(message.headerDelayMs);
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    "request-id": `req_fake_${randomUUID()}`,
  });
  const delay = message.chunkDelayMs ?? 0;
  for (const event of anthropicStreamEvents(message, identity)) {
    if (record.closedByClient || res.destroyed) return;
    res.write(encodeAnthropicSse(event));
    if (delay > 0 && event.type === "content_block_delta") await sleep(delay);
  }
  res.end();
}

/**
 * A scripted Anthropic Messages API on 127.0.0.1 for driving real clients (the Claude Code CLI)
 * offline. Conversation requests take replies from FIFO queues (one for the main loop, one for
 * subagents); every request is recorded.
 */
export async function startFakeMessagesServer(
  options: FakeMessagesServerOptions = {},
): Promise<FakeMessagesServer> {
  const queues = {
    main: [...(options.script ?? [])],
    subagent: [...(options.subagentScript ?? [])],
  };
  const log = createRequestLog<AnthropicRecordedRequest>("fake Anthropic server");
  const requests = log.requests;
  const promptRoutes: PromptRoute<AnthropicReply>[] = [];
  const fallbackModel = options.model ?? "claude-fake-1";
  const defaultReply = options.defaultReply ?? anthropicTextReply("OK");
  const auxiliaryReply = options.auxiliaryReply ?? anthropicTextReply("Fake auxiliary reply");

  function nextConversationReply(record: AnthropicRecordedRequest): AnthropicReply {
    const routed = options.respond?.(record);
    if (routed) return routed;
    const route =
      record.agent === "main"
        ? routedReply(promptRoutes, anthropicLatestUserText(record))
        : undefined;
    return route ?? takeQueued(queues[record.agent], defaultReply);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const body = parseJson(text);
    const record: AnthropicRecordedRequest = {
      index: requests.length,
      method,
      path,
      headers: { ...req.headers },
      body,
      kind: classifyAnthropicRequest(method, path, body),
      agent: anthropicAgentOf(body),
      receivedAt: Date.now(),
      closedByClient: false,
    };
    log.record(record);

    const model = requestedModel(body, fallbackModel);
    if (record.kind === "count_tokens") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: Math.ceil(text.length / 4) }));
      return;
    }
    if (record.kind === "other") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: path } }));
      return;
    }
    const reply = record.kind === "conversation" ? nextConversationReply(record) : auxiliaryReply;
    if (reply.kind === "error") {
      writeError(res, reply);
      return;
    }
    const identity = identityFor(reply, model);
    const streamed = typeof body === "object" && body !== null && "stream" in body && body.stream;
    if (streamed) {
      await writeStream(res, reply, identity, record);
    } else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(anthropicMessageJson(reply, identity)));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ type: "error", error: { type: "api_error", message: String(error) } }),
      );
    });
  });
  const { port, url, close } = await listenOnLoopback(server);

  return {
    url,
    port,
    requests,
    conversationRequests: log.conversationRequests,
    enqueue: (...replies) => {
      queues.main.push(...replies);
    },
    answerPrompt: (match, reply) => {
      promptRoutes.push({ match, reply });
    },
    enqueueSubagent: (...replies) => {
      queues.subagent.push(...replies);
    },
    pending: () => queues.main.length,
    waitForRequest: log.waitForRequest,
    waitForConversationRequests: log.waitForConversationRequests,
    close,
  };
}
