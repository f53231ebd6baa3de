import { createTRPCClient, httpBatchLink, splitLink, type TRPCClient } from "@trpc/client";
import { FetchEventSource, type FetchEventSourceInit } from "./event-source/fetch-event-source.ts";
import { sseSubscriptionLink } from "./event-source/sse-subscription-link.ts";
import type { AppRouter } from "./root.ts";

export type { AppRouter, RouterInputs, RouterOutputs, WatchMessage } from "./index.ts";
export { FetchEventSource, type FetchEventSourceInit };

export type SkeinClientOptions = {
  /** The API's base URL (`http://127.0.0.1:4317`) or its tRPC endpoint (`…/trpc`). */
  url: string;
  /** `SKEIN_API_TOKEN` of the server, when it has one. */
  token?: string;
  /**
   * How subscriptions carry the token. `header` (default) streams over fetch with an
   * `Authorization` header. `connectionParams` uses the browser's own EventSource and puts the
   * token in the URL (`?connectionParams={"token":…}`): it works where fetch streaming does not,
   * but URLs end up in logs, so prefer the header.
   */
  subscriptionAuth?: "header" | "connectionParams";
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /** Extra headers on every call (an instance forwarding a command marks it with one). */
  headers?: Record<string, string>;
};

export type SkeinClient = TRPCClient<AppRouter>;

function trpcEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/trpc") ? trimmed : `${trimmed}/trpc`;
}

/**
 * The typed Skein client: queries and mutations batched over HTTP, subscriptions over SSE.
 * Subscriptions resume by themselves after a dropped connection (the last tracked id goes back
 * as `Last-Event-ID`); a consumer that restarts keeps its own cursor and passes `lastEventId`.
 */
export function createSkeinClient(options: SkeinClientOptions): SkeinClient {
  const url = trpcEndpoint(options.url);
  const authorization: Record<string, string> = {
    ...options.headers,
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  };
  const viaParams = options.subscriptionAuth === "connectionParams";
  const subscriptions = viaParams
    ? sseSubscriptionLink<AppRouter>({
        url,
        // The platform's EventSource where there is one (browsers), else the fetch-based one.
        ...(globalThis.EventSource ? { EventSource: globalThis.EventSource } : {}),
        ...(options.token === undefined ? {} : { connectionParams: { token: options.token } }),
      })
    : sseSubscriptionLink<AppRouter>({
        url,
        eventSourceInit: {
          headers: authorization,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        },
      });
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: subscriptions,
        false: httpBatchLink({
          url,
          headers: () => authorization,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
      }),
    ],
  });
}
