import http from "node:http";
import type { AddressInfo } from "node:net";
import type { EventStore, RawLogReader } from "@skein/db";
import {
  appRouter,
  MAX_BODY_BYTES,
  MAX_IMPORT_BODY_BYTES,
  MAX_REPLAY_EVENTS,
  SSE_PING_MS,
  SSE_RECONNECT_AFTER_INACTIVITY_MS,
  type OrchestratorCommands,
  type SkeinContext,
  type SkeinNotifications,
} from "@skein/contract";
import type { TRPCError } from "@trpc/server";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { AttachmentStore } from "./attachments/attachment-store.ts";
import { authenticate } from "./auth.ts";
import { isLoopbackHost } from "./env.ts";
import { ConnectionTracker } from "./http/connection-tracker.ts";
import { applyOriginPolicy } from "./http/origin-policy.ts";
import { ATTACHMENTS_PATH, serveAttachmentUpload } from "./http/attachment-upload.ts";
import { type LeanSseOptions, serveLeanSse } from "./http/lean-sse.ts";
import { withCompression } from "./http/response-compression.ts";
import { refuseUnauthenticatedSubscription, subscriptionPaths } from "./http/subscription-auth.ts";
import type { Logger } from "./logger.ts";
import type { SkeinMetrics } from "./metrics/skein-metrics.ts";
import { serveMetrics } from "./metrics/serve-metrics.ts";
import { FORWARDED_HEADER } from "./http/runtime-remote.ts";
import { agentNameOf } from "./http/agent-header.ts";
import { MCP_PATH, McpEndpoint } from "./mcp/mcp-http.ts";
import {
  GITHUB_WEBHOOK_PATH,
  type GitHubWebhookOptions,
  serveGitHubWebhook,
} from "./http/github-webhook.ts";
import { FoldCheckpointer } from "./read-models/fold-checkpointer.ts";
import { PastFolds } from "./read-models/past-folds.ts";
import { usePastFolds } from "./read-models/past-reads.ts";
import { createReadModels } from "./read-models/index.ts";
import { createSkeinServices } from "./services.ts";

export type SkeinServerOptions = {
  orchestrator: OrchestratorCommands;
  store: EventStore;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Browser origins allowed to call (the web UI's). */
  webOrigins: readonly string[];
  apiToken: string | null;
  /** Skein's own folders (its data dir): no workspace may be or lie inside one (B4). */
  dataDirs?: readonly string[];
  /** Where uploads are stored (E16); without it, `/attachments` is not served. */
  attachments?: AttachmentStore;
  /** B20: Web Push subscriptions (`notify.*`); without it those procedures are refused. */
  notifications?: SkeinNotifications | null;
  log: Logger;
  maxReplayEvents?: number;
  /** Prometheus metrics served at `/metrics` (B11); none when left out. */
  metrics?: SkeinMetrics;
  /** The raw provider log (E18) the adapters write, for `events.raw` (B8); none when left out. */
  rawLog?: RawLogReader;
  /** B17: `POST /webhooks/github` (signed with `secret`); not served when left out. */
  githubWebhook?: Omit<GitHubWebhookOptions, "log">;
  /** How long shutdown waits for in-flight calls before cutting them; default 10 s. */
  shutdownGraceMs?: number;
  /**
   * B8: store past-read checkpoints in the background as streams grow, so the first past read
   * after a restart starts near its point; default on.
   */
  backgroundCheckpoints?: boolean;
};

export type SkeinServer = {
  /** Base URL, e.g. `http://127.0.0.1:4317`; tRPC lives under `/trpc`. */
  readonly url: string;
  readonly port: number;
  /**
   * Graceful stop: refuse new connections, cut SSE streams (clients resume with their cursor),
   * let in-flight calls finish, stop the orchestrator (interrupting runs), then close the store
   * (which flushes queued commits). Idempotent.
   */
  close(): Promise<void>;
};

/** The watch subscriptions, written by the lean SSE path (see http/lean-sse.ts). */
const WATCH_PATHS: ReadonlySet<string> = new Set([
  "thread.watchShells",
  "thread.watchDetail",
  "events.watch",
]);

function urlFor(host: string, port: number): string {
  const name = host.includes(":") ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

function forwardedBy(req: http.IncomingMessage): string | null {
  const value = req.headers[FORWARDED_HEADER];
  return typeof value === "string" && value !== "" ? value : null;
}

export async function startServer(options: SkeinServerOptions): Promise<SkeinServer> {
  const { orchestrator, store, log } = options;
  const readModels = createReadModels(store);
  // Past reads' checkpoints go to the store in the background; a failed write is only logged.
  const pastFolds = new PastFolds({ log });
  usePastFolds(store, pastFolds);
  const checkpointer =
    options.backgroundCheckpoints === false
      ? null
      : new FoldCheckpointer(store, pastFolds, { log });
  const shutdown = new AbortController();
  const tracker = new ConnectionTracker();
  const watch = {
    maxReplayEvents: options.maxReplayEvents ?? MAX_REPLAY_EVENTS,
    shutdownSignal: shutdown.signal,
  };
  const policy = {
    allowedOrigins: new Set(options.webOrigins),
    loopbackOnly: isLoopbackHost(options.host),
  };

  const subscriptions = subscriptionPaths(appRouter);
  const services = createSkeinServices(
    { orchestrator, store, readModels, watch, rawLog: options.rawLog ?? null },
    options.dataDirs ?? [],
    options.notifications ?? null,
  );

  const contextFor = (
    req: http.IncomingMessage,
    connectionParams: Record<string, string | undefined> | null,
    isSubscription: boolean,
  ): SkeinContext => ({
    services,
    auth: authenticate(options.apiToken, req.headers, connectionParams, isSubscription),
    forwardedBy: forwardedBy(req),
    agentName: agentNameOf(req),
  });
  const mcp = new McpEndpoint({ services, apiToken: options.apiToken, log });
  const onError = ({ error, path, type }: { error: TRPCError; path?: string; type: string }) => {
    if (error.code === "INTERNAL_SERVER_ERROR") {
      log.error({ err: error.cause ?? error, path, type }, "procedure failed");
    } else {
      log.debug({ code: error.code, path, type, message: error.message }, "procedure refused");
    }
  };
  const trpcWithBodyLimit = (maxBodySize: number) =>
    createHTTPHandler({
      router: appRouter,
      basePath: "/trpc/",
      maxBodySize,
      createContext: ({ req, info }) =>
        contextFor(req, info.connectionParams, info.type === "subscription"),
      onError,
    });
  const trpc = trpcWithBodyLimit(MAX_BODY_BYTES);
  // The same router with room for one thread's whole history, reached only at thread.import.
  const trpcImport = trpcWithBodyLimit(MAX_IMPORT_BODY_BYTES);
  const leanSse: LeanSseOptions = {
    router: appRouter,
    paths: WATCH_PATHS,
    createContext: (req, connectionParams) => contextFor(req, connectionParams, true),
    client: { reconnectAfterInactivityMs: SSE_RECONNECT_AFTER_INACTIVITY_MS },
    pingMs: SSE_PING_MS,
    onError: ({ error, path }) => onError({ error, path, type: "subscription" }),
  };

  const server = http.createServer((req, res) => {
    if (applyOriginPolicy(req, res, policy)) return;
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (pathname === "/healthz") {
      // Issue 35: a store that cannot take writes is not healthy; the cause is said in words.
      const fault = store.fault();
      res.writeHead(fault === null ? 200 : 503, { "content-type": "application/json" });
      res.end(JSON.stringify(fault === null ? { ok: true } : { ok: false, error: fault }));
      return;
    }
    if (pathname === "/metrics" && options.metrics) {
      serveMetrics(req, res, options.metrics, options.apiToken).catch((error: unknown) => {
        log.error({ err: error }, "metrics scrape failed");
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    const attachments = options.attachments;
    if (pathname === ATTACHMENTS_PATH && attachments) {
      tracker.track(req, res);
      serveAttachmentUpload(req, res, { store: attachments, apiToken: options.apiToken }).catch(
        (error: unknown) => {
          log.error({ err: error }, "attachment upload failed");
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(
            JSON.stringify({ error: { code: "INTERNAL_SERVER_ERROR", message: "upload failed" } }),
          );
        },
      );
      return;
    }
    if (pathname === GITHUB_WEBHOOK_PATH && options.githubWebhook) {
      tracker.track(req, res);
      serveGitHubWebhook(req, res, { ...options.githubWebhook, log }).catch((error: unknown) => {
        log.error({ err: error }, "GitHub webhook failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      });
      return;
    }
    if (pathname === MCP_PATH) {
      tracker.track(req, res);
      mcp.handle(req, res).catch((error: unknown) => {
        log.error({ err: error }, "MCP request failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      });
      return;
    }
    if (pathname.startsWith("/trpc/")) {
      const refusal = { paths: subscriptions, apiToken: options.apiToken };
      if (refuseUnauthenticatedSubscription(req, res, refusal)) return;
      tracker.track(req, res);
      withCompression(req, res, () =>
        serveLeanSse(req, res, leanSse).then(
          (served) => {
            if (served) return;
            if (pathname === "/trpc/thread.import") void trpcImport(req, res);
            else void trpc(req, res);
          },
          (error: unknown) => {
            log.error({ err: error }, "subscription stream failed");
            res.destroy();
          },
        ),
      );
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ error: { code: "NOT_FOUND", message: "tRPC is served under /trpc" } }),
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = urlFor(options.host, port);
  // Started once listening, so a server that failed to start leaves no subscription behind.
  await checkpointer?.start();

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    tracker.cutStreams();
    shutdown.abort();
    await mcp.close();
    server.closeIdleConnections();
    const drained = await tracker.drained(options.shutdownGraceMs ?? 10_000);
    if (!drained) log.warn({ inFlight: tracker.activeRequests }, "cutting calls still in flight");
    server.closeAllConnections();
    await closed;
    await orchestrator.shutdown();
    options.metrics?.close();
    // Its step in progress finishes its write (or gives up) before the store closes.
    await checkpointer?.stop();
    await store.close();
  };

  return {
    url,
    port,
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}
