/**
 * The Skein API client for any JavaScript runtime with fetch (Node 20+, browsers): queries and
 * mutations batched over HTTP, subscriptions over SSE with `Last-Event-ID` resume.
 */
export { createSkeinClient, type SkeinClient, type SkeinClientOptions } from "./create-client.ts";
export {
  FetchEventSource,
  type FetchEventSourceEvent,
  type FetchEventSourceInit,
  SseHttpError,
} from "./event-source/fetch-event-source.ts";
export {
  type SseSubscriptionLinkOptions,
  sseSubscriptionLink,
} from "./event-source/sse-subscription-link.ts";
