import type { IncomingMessage, ServerResponse } from "node:http";
import { isLoopbackHost } from "../env.ts";

// cache-control: the client's fetch-based EventSource sends it on watch requests from browsers.
const ALLOWED_HEADERS =
  "authorization, cache-control, content-type, last-event-id, trpc-accept, x-trpc-source";

export type OriginPolicy = {
  /** Exact origins (scheme://host:port) a browser may call from: the web UI's. */
  allowedOrigins: ReadonlySet<string>;
  /** Loopback-bound servers also insist on a loopback Host header (DNS-rebinding guard). */
  loopbackOnly: boolean;
};

/** A Host header as RFC 9110 allows it: a name or IPv4, or a bracketed IPv6, and a port. */
const HOST_HEADER = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The host name of a well-formed Host header; "" for anything else (`127.0.0.1:80@evil.example`
 * must not read as loopback because it starts like it).
 */
function hostnameOf(hostHeader: string): string {
  return HOST_HEADER.exec(hostHeader)?.[1] ?? "";
}

function refuse(res: ServerResponse, message: string): void {
  res.writeHead(403, { "content-type": "application/json" });
  res.end(JSON.stringify({ error: { code: "FORBIDDEN", message } }));
}

/**
 * CORS for the web UI only, plus two refusals that matter for a server on the user's machine:
 * a request carrying a foreign `Origin` is refused outright (not merely left without CORS
 * headers), so a web page cannot fire commands at the API with a "simple" request; and on a
 * loopback bind, a non-loopback `Host` (a DNS-rebound name) is refused. Returns true when the
 * response has been written and the request must not go further.
 */
export function applyOriginPolicy(
  req: IncomingMessage,
  res: ServerResponse,
  policy: OriginPolicy,
): boolean {
  if (policy.loopbackOnly && !isLoopbackHost(hostnameOf(req.headers.host ?? ""))) {
    refuse(res, `Host ${JSON.stringify(req.headers.host ?? "")} is not served here`);
    return true;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  if (!policy.allowedOrigins.has(origin)) {
    refuse(res, `origin ${origin} is not allowed; only the Skein web UI may call this API`);
    return true;
  }
  res.setHeader("access-control-allow-origin", origin);
  res.setHeader("vary", "Origin");
  if (req.method === "OPTIONS") {
    res.writeHead(204, {
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "600",
    });
    res.end();
    return true;
  }
  return false;
}
