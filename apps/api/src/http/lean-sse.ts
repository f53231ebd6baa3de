import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyProcedure, AnyRouter } from "@trpc/server";
import {
  getErrorShape,
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  isAbortError,
  isTrackedEnvelope,
  parseConnectionParamsFromString,
  sseHeaders,
  type TRPCError,
} from "@trpc/server/unstable-core-do-not-import";
import {
  connectedFrame,
  dataFrame,
  errorFrame,
  eventFrame,
  isEventMessage,
  pingFrame,
  returnFrame,
} from "./sse-frames.ts";
import { writeFrame } from "./sse-writes.ts";

/**
 * The watch subscriptions, written straight to the socket. tRPC's own SSE output pushes every
 * message through web streams (a TransformStream and a TextEncoderStream per subscriber) and
 * re-serializes it for each one, which at 100 subscribers costs more than everything else the
 * server does. Here the procedure is still called through tRPC (input parsing, auth middleware,
 * error mapping, the same resolver), and the frames are tRPC's wire format byte for byte; only
 * the writing is ours. Anything unusual (batched or malformed requests, a call refused before it
 * streams) is handed back to tRPC's handler, which answers it exactly as before.
 */

export type LeanSseOptions = {
  router: AnyRouter;
  /** Procedure paths served here; every one must be a subscription. */
  paths: ReadonlySet<string>;
  createContext: (req: IncomingMessage, connectionParams: Record<string, string> | null) => unknown;
  /** tRPC's `sse.client` options, sent in the `connected` frame. */
  client: object;
  pingMs: number;
  onError: (opts: { error: TRPCError; path: string }) => void;
};

type Parsed = {
  path: string;
  input: unknown;
  connectionParams: Record<string, string> | null;
};

/** The request as tRPC would read it, or null to leave it to tRPC. */
function parseRequest(req: IncomingMessage, paths: ReadonlySet<string>): Parsed | null {
  if (req.method !== "GET") return null;
  const url = new URL(req.url ?? "/", "http://skein");
  const path = decodeURIComponent(url.pathname.slice("/trpc/".length));
  if (!paths.has(path) || url.searchParams.has("batch")) return null;
  try {
    const raw = url.searchParams.get("input");
    let input: unknown = raw === null ? undefined : JSON.parse(raw);
    const params = url.searchParams.get("connectionParams");
    const connectionParams = params === null ? null : parseConnectionParamsFromString(params);
    // tRPC merges the SSE reconnect cursor into the input the same way (getLastEventId).
    const header = req.headers["last-event-id"];
    const lastEventId =
      (typeof header === "string" ? header : null) ??
      url.searchParams.get("lastEventId") ??
      url.searchParams.get("Last-Event-Id");
    if (lastEventId) {
      if (typeof input === "object" && input !== null && !Array.isArray(input)) {
        input = { ...input, lastEventId };
      } else input ??= { lastEventId };
    }
    return { path, input, connectionParams: connectionParams as Record<string, string> | null };
  } catch {
    return null;
  }
}

/** Returns false when the request is not one to serve here (the caller passes it to tRPC). */
export async function serveLeanSse(
  req: IncomingMessage,
  res: ServerResponse,
  options: LeanSseOptions,
): Promise<boolean> {
  const parsed = parseRequest(req, options.paths);
  if (parsed === null) return false;
  const procedure: AnyProcedure | null = await getProcedureAtPath(options.router, parsed.path);
  if (procedure === null || procedure._def.type !== "subscription") return false;
  const abort = new AbortController();
  const ctx = options.createContext(req, parsed.connectionParams);
  let iterable: AsyncIterable<unknown>;
  try {
    // Runs input validation and the middlewares (auth, error mapping); the resolvers are async
    // generators, so nothing of theirs has run yet when this throws.
    iterable = (await procedure({
      path: parsed.path,
      getRawInput: async () => parsed.input,
      ctx,
      type: "subscription",
      signal: abort.signal,
      batchIndex: 0,
    })) as AsyncIterable<unknown>;
  } catch {
    return false;
  }

  res.once("close", () => abort.abort());
  // Without tRPC's no-transform: the stream is compressed here when the client accepts it.
  res.writeHead(200, { ...sseHeaders, "Cache-Control": "no-cache" });
  writeFrame(res, connectedFrame(options.client));
  // One timer per stream, re-armed on each write (no per-message timer): a ping after each
  // quiet `pingMs`, so the client's inactivity timeout only fires on a dead connection.
  const ping = setTimeout(function beat() {
    writeFrame(res, pingFrame);
    ping.refresh();
  }, options.pingMs);
  const iterator = iterable[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done || abort.signal.aborted) break;
      const value: unknown = next.value;
      let bytes: Buffer;
      if (isTrackedEnvelope(value)) {
        const [id, data] = value;
        bytes = isEventMessage(data) ? eventFrame(id, data.event) : dataFrame(id, data);
      } else {
        bytes = Buffer.from(`data: ${JSON.stringify(value)}\n\n\n`);
      }
      ping.refresh();
      const drained = writeFrame(res, bytes);
      if (drained !== null) await drained;
    }
    if (!abort.signal.aborted) writeFrame(res, returnFrame);
  } catch (cause) {
    if (!isAbortError(cause) && !abort.signal.aborted) {
      const error = getTRPCErrorFromUnknown(cause);
      options.onError({ error, path: parsed.path });
      const shape = getErrorShape({
        config: options.router._def._config,
        error,
        type: "subscription",
        path: parsed.path,
        input: parsed.input,
        ctx,
      });
      writeFrame(res, errorFrame(shape));
    }
  } finally {
    clearTimeout(ping);
    await Promise.resolve(iterator.return?.()).catch(() => undefined);
    res.end();
  }
  return true;
}
