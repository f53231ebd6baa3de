import { timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { CallerAuth } from "@skein/contract";

function sameToken(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  // Length leaks nothing useful here (the token's length is not secret), but the compare must be
  // constant-time so a byte-by-byte guess gets no timing signal.
  return a.length === b.length && timingSafeEqual(a, b);
}

function bearerOf(headers: IncomingHttpHeaders): string | null {
  const header = headers.authorization;
  if (typeof header !== "string") return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Accepts `Authorization: Bearer <token>` on any request. The token in the URL
 * (`connectionParams={"token":"<token>"}`, which tRPC's httpSubscriptionLink sends when given
 * `connectionParams`) counts only for subscriptions: it exists for browsers' EventSource, which
 * cannot set headers, and URLs end up in logs and histories, so it must not open anything else.
 */
export function authenticate(
  expectedToken: string | null,
  headers: IncomingHttpHeaders,
  connectionParams: Readonly<Record<string, string | undefined>> | null,
  isSubscription: boolean,
): CallerAuth {
  if (expectedToken === null) return { required: false, authenticated: true };
  const fromUrl = isSubscription ? (connectionParams?.token ?? null) : null;
  const presented = bearerOf(headers) ?? fromUrl;
  return {
    required: true,
    authenticated: presented !== null && sameToken(presented, expectedToken),
  };
}
