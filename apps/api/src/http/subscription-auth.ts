import type { IncomingMessage, ServerResponse } from "node:http";
import type { AnyRouter } from "@trpc/server";
import { parseConnectionParamsFromString } from "@trpc/server/unstable-core-do-not-import";
import { authenticate } from "../auth.ts";

/**
 * An unauthenticated subscription is refused with HTTP 401 before any stream starts. Left to
 * tRPC, a refused subscription still answers 200 `text/event-stream` with an error frame, which
 * an EventSource cannot tell from a working stream that failed later.
 */

/** Every subscription procedure's path (`thread.watchShells`, …). */
export function subscriptionPaths(router: AnyRouter): ReadonlySet<string> {
  const paths = new Set<string>();
  for (const [path, procedure] of Object.entries(router._def.procedures)) {
    if ((procedure as { _def: { type: string } })._def.type === "subscription") paths.add(path);
  }
  return paths;
}

function calledPaths(url: URL): string[] {
  const raw = url.pathname.slice("/trpc/".length);
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // tRPC refuses a malformed path itself.
  }
  // tRPC serves `/trpc/events.watch/` (a trailing slash) as `events.watch`: so must this check.
  return decoded.split(",").map((path) => path.trim().replace(/^\/+|\/+$/g, ""));
}

function connectionParamsOf(url: URL): Record<string, string | undefined> | null {
  const raw = url.searchParams.get("connectionParams");
  if (raw === null) return null;
  try {
    return parseConnectionParamsFromString(raw) as Record<string, string | undefined>;
  } catch {
    return null;
  }
}

/** Writes a 401 and returns true when `req` calls a subscription without a valid token. */
export function refuseUnauthenticatedSubscription(
  req: IncomingMessage,
  res: ServerResponse,
  options: { paths: ReadonlySet<string>; apiToken: string | null },
): boolean {
  if (options.apiToken === null) return false;
  const url = new URL(req.url ?? "/", "http://skein");
  if (!calledPaths(url).some((path) => options.paths.has(path))) return false;
  const auth = authenticate(options.apiToken, req.headers, connectionParamsOf(url), true);
  if (auth.authenticated) return false;
  const message =
    "missing or wrong API token: send `Authorization: Bearer <SKEIN_API_TOKEN>`, or for an " +
    'EventSource the URL parameter connectionParams={"token": …}';
  res.writeHead(401, {
    "content-type": "application/json",
    "www-authenticate": 'Bearer realm="skein"',
  });
  res.end(
    JSON.stringify({
      error: { message, code: -32001, data: { code: "UNAUTHORIZED", httpStatus: 401 } },
    }),
  );
  return true;
}
