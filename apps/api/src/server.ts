import http from "node:http";
import type { AddressInfo } from "node:net";
import type { EventStore } from "@skein/db";
import type { TRPCError } from "@trpc/server";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { authenticate } from "./auth.ts";
import type { ApiContext } from "./context.ts";
import { isLoopbackHost } from "./env.ts";
import { ConnectionTracker } from "./http/connection-tracker.ts";
import { applyOriginPolicy } from "./http/origin-policy.ts";
import { type LeanSseOptions, serveLeanSse } from "./http/lean-sse.ts";
import {
  MAX_BODY_BYTES,
  MAX_REPLAY_EVENTS,
  SSE_PING_MS,
  SSE_RECONNECT_AFTER_INACTIVITY_MS,
} from "./limits.ts";
import type { Logger } from "./logger.ts";
import type { OrchestratorCommands } from "./orchestrator/service-types.ts";
import { FORWARDED_HEADER } from "./orchestrator/runtime-forwarding.ts";
import { createReadModels } from "./read-models/index.ts";
import { appRouter } from "./root.ts";

export type SkeinServerOptions = {
  orchestrator: OrchestratorCommands;
  store: EventStore;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** Browser origins allowed to call (the web UI's). */
  webOrigins: readonly string[];
  apiToken: string | null;
  log: Logger;
  maxReplayEvents?: number;
  /** How long shutdown waits for in-flight calls before cutting them; default 10 s. */
  shutdownGraceMs?: number;
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

  const contextFor = (
    req: http.IncomingMessage,
    connectionParams: Record<string, string | undefined> | null,
  ): ApiContext => ({
    orchestrator,
    store,
    readModels,
    auth: authenticate(options.apiToken, req.headers, connectionParams),
    watch,
    forwardedBy: forwardedBy(req),
  });
  const onError = ({ error, path, type }: { error: TRPCError; path?: string; type: string }) => {
    if (error.code === "INTERNAL_SERVER_ERROR") {
      log.error({ err: error.cause ?? error, path, type }, "procedure failed");
    } else {
      log.debug({ code: error.code, path, type, message: error.message }, "procedure refused");
    }
  };
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: "/trpc/",
    maxBodySize: MAX_BODY_BYTES,
    createContext: ({ req, info }) => contextFor(req, info.connectionParams),
    onError,
  });
  const leanSse: LeanSseOptions = {
    router: appRouter,
    paths: WATCH_PATHS,
    createContext: contextFor,
    client: { reconnectAfterInactivityMs: SSE_RECONNECT_AFTER_INACTIVITY_MS },
    pingMs: SSE_PING_MS,
    onError: ({ error, path }) => onError({ error, path, type: "subscription" }),
  };

  const server = http.createServer((req, res) => {
    if (applyOriginPolicy(req, res, policy)) return;
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (pathname === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
      return;
    }
    if (pathname.startsWith("/trpc/")) {
      tracker.track(req, res);
      serveLeanSse(req, res, leanSse).then(
        (served) => {
          if (!served) void trpc(req, res);
        },
        (error: unknown) => {
          log.error({ err: error }, "subscription stream failed");
          res.destroy();
        },
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

  let closing: Promise<void> | null = null;
  const close = async (): Promise<void> => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    tracker.cutStreams();
    shutdown.abort();
    server.closeIdleConnections();
    const drained = await tracker.drained(options.shutdownGraceMs ?? 10_000);
    if (!drained) log.warn({ inFlight: tracker.activeRequests }, "cutting calls still in flight");
    server.closeAllConnections();
    await closed;
    await orchestrator.shutdown();
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
