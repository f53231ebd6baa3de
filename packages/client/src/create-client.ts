import {
  createTRPCClient,
  httpBatchLink,
  httpLink,
  splitLink,
  type TRPCClient,
} from "@trpc/client";
import type { AnyRouter } from "@trpc/server";
import { sseSubscriptionLink } from "./event-source/sse-subscription-link.ts";

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

/** A client typed by the router it talks to (`SkeinClient<AppRouter>` from `@skein/contract`). */
export type SkeinClient<TRouter extends AnyRouter> = TRPCClient<TRouter>;

function trpcEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/trpc") ? trimmed : `${trimmed}/trpc`;
}

/**
 * The typed Skein client: queries and mutations batched over HTTP, subscriptions over SSE.
 * Subscriptions resume by themselves after a dropped connection (the last tracked id goes back
 * as `Last-Event-ID`); a consumer that restarts keeps its own cursor and passes `lastEventId`.
 *
 * The router type only shapes the calls (`createSkeinClient<AppRouter>(…)`, with `AppRouter` from
 * `@skein/contract`): at run time the client is plain JavaScript with no server code in it.
 */
export function createSkeinClient<TRouter extends AnyRouter>(
  options: SkeinClientOptions,
): SkeinClient<TRouter> {
  const url = trpcEndpoint(options.url);
  const authorization: Record<string, string> = {
    ...options.headers,
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  };
  const viaParams = options.subscriptionAuth === "connectionParams";
  const subscriptions = viaParams
    ? sseSubscriptionLink<TRouter>({
        url,
        // The platform's EventSource where there is one (browsers), else the fetch-based one.
        ...(globalThis.EventSource ? { EventSource: globalThis.EventSource } : {}),
        ...(options.token === undefined ? {} : { connectionParams: { token: options.token } }),
      })
    : sseSubscriptionLink<TRouter>({
        url,
        eventSourceInit: {
          headers: authorization,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        },
      });
  return createTRPCClient<TRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === "subscription",
        true: subscriptions,
        // Skein sends plain JSON (no transformer); the batch link's options depend on that, which
        // TypeScript cannot see through an open router type.
        false: splitLink({
          // A provider's status or models may start its runtime (seconds, or a timeout): never
          // batched, so a thread's detail asked in the same tick does not wait for them.
          condition: (op) => op.path.startsWith("provider."),
          true: httpLink<AnyRouter>({
            url,
            headers: () => authorization,
            ...(options.fetch ? { fetch: options.fetch } : {}),
          }),
          false: httpBatchLink<AnyRouter>({
            url,
            headers: () => authorization,
            ...(options.fetch ? { fetch: options.fetch } : {}),
          }),
        }),
      }),
    ],
  });
}
