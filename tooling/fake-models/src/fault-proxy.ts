import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What a faulty model endpoint does to one request. The proxy sits in front of a fake model
 * server (or any HTTP upstream) so both providers' runtimes meet the same faults without either
 * fake server knowing about them.
 */
export type ModelFault =
  /** An HTTP error with a JSON body (e.g. 500, or 529 "overloaded"). */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Headers of a 200 event stream, then nothing at all until the client gives up. */
  | { kind: "hang" }
  /** The upstream reply, cut (socket destroyed) after `afterBytes` bytes of its body. */
  | { kind: "cut_stream"; afterBytes: number }
  /** A 200 event stream whose first event is not valid JSON, then the end of the stream. */
  | { kind: "malformed_sse" }
  /** The upstream reply, sent only after `delayMs`. */
  | { kind: "slow_first_byte"; delayMs: number };

export type FaultProxyRequest = { method: string; path: string; body: string };

export type FaultProxyOptions = {
  /** Base URL of the upstream, as given to a provider (e.g. `http://127.0.0.1:1234/v1`). */
  upstream: string;
  /** Which requests faults apply to (default: every POST). Others always pass through. */
  applies?: (request: FaultProxyRequest) => boolean;
};

export type FaultProxy = {
  /** The proxy's base URL, with the upstream's path prefix: use it in the provider's config. */
  url: string;
  /** Faults for the next matching requests, in order; each answers one request. */
  inject(...faults: ModelFault[]): void;
  /** Chooses each matching request's fault (null: pass through) until cleared with null. */
  setChooser(choose: ((request: FaultProxyRequest) => ModelFault | null) | null): void;
  /** Every fault applied, in order, with the path it hit. */
  readonly applied: { fault: ModelFault; path: string }[];
  close(): Promise<void>;
};

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "host"]);

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const upstream = new URL(options.upstream);
  const applies = options.applies ?? ((request) => request.method === "POST");
  const queued: ModelFault[] = [];
  const applied: { fault: ModelFault; path: string }[] = [];
  const hanging = new Set<ServerResponse>();
  let chooser: ((request: FaultProxyRequest) => ModelFault | null) | null = null;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`fault proxy: ${String(error)}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://proxy").pathname;
    const request = { method: req.method ?? "GET", path, body: body.toString("utf8") };
    const fault = applies(request) ? (queued.shift() ?? chooser?.(request) ?? null) : null;
    if (fault) applied.push({ fault, path });
    switch (fault?.kind) {
      case "status":
        res.writeHead(fault.status, { "content-type": "application/json", ...fault.headers });
        res.end(JSON.stringify(fault.body ?? defaultErrorBody(fault.status)));
        return;
      case "hang":
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.flushHeaders();
        hanging.add(res);
        res.on("close", () => hanging.delete(res));
        return;
      case "malformed_sse":
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end("event: response.created\ndata: {not json\n\n");
        return;
      case "slow_first_byte":
        await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        return forward(req, body, res, null);
      case "cut_stream":
        return forward(req, body, res, fault.afterBytes);
      default:
        return forward(req, body, res, null);
    }
  }

  function forward(
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
    cutAfterBytes: number | null,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const headers: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
      }
      headers["content-length"] = body.length;
      const out = httpRequest(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (upstreamRes) => {
          const passHeaders: OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(upstreamRes.headers)) {
            if (!HOP_BY_HOP.has(name) && name !== "content-length" && value !== undefined) {
              passHeaders[name] = value;
            }
          }
          res.writeHead(upstreamRes.statusCode ?? 502, passHeaders);
          res.flushHeaders();
          let sent = 0;
          upstreamRes.on("data", (chunk: Buffer) => {
            if (cutAfterBytes === -1) return;
            if (cutAfterBytes !== null && sent + chunk.length >= cutAfterBytes) {
              upstreamRes.destroy();
              // Destroying the socket mid-body is what a dropped connection looks like.
              res.write(chunk.subarray(0, Math.max(0, cutAfterBytes - sent)), () =>
                res.socket?.destroy(),
              );
              cutAfterBytes = -1;
              resolve();
              return;
            }
            sent += chunk.length;
            res.write(chunk);
          });
          upstreamRes.on("end", () => {
            if (cutAfterBytes !== -1) res.end();
            resolve();
          });
          upstreamRes.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(body);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}${upstream.pathname.replace(/\/$/, "")}`;
  return {
    url,
    inject: (...faults) => queued.push(...faults),
    setChooser: (choose) => {
      chooser = choose;
    },
    applied,
    close: async () => {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An error body both providers' clients read as a server-side failure. */
function defaultErrorBody(status: number): unknown {
  const overloaded = status === 529;
  return {
    type: "error",
    error: {
      type: overloaded ? "overloaded_error" : "api_error",
      message: overloaded ? "fake: overloaded" : `fake: upstream error ${status}`,
      code: String(status),
    },
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
