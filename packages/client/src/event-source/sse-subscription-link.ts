import { TRPCClientError, type TRPCLink } from "@trpc/client";
import type { AnyRouter } from "@trpc/server";
import { observable } from "@trpc/server/observable";
import { retryableRpcCodes } from "@trpc/server/unstable-core-do-not-import";
import { FetchEventSource, type FetchEventSourceInit, SseHttpError } from "./fetch-event-source.ts";

/**
 * The subset of an `EventSource` this link uses: the browser's own and `FetchEventSource` both
 * fit. Listeners get `MessageEvent`-like objects (`data`, `lastEventId`).
 */
type EventSourceLike = {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: SseEvent) => void): void;
  close(): void;
};
type SseEvent = { data?: string; lastEventId?: string; error?: unknown };
type EventSourceConstructor = new (url: string, init?: FetchEventSourceInit) => EventSourceLike;

export type SseSubscriptionLinkOptions = {
  /** The tRPC endpoint (`…/trpc`). */
  url: string;
  /** Sent in the URL (`?connectionParams=…`), for EventSources that cannot send headers. */
  connectionParams?: Record<string, string>;
  EventSource?: EventSourceConstructor;
  eventSourceInit?: FetchEventSourceInit;
};

const CLOSED = 2;

/** `{ error: { code, message, data } }` from a refused connection's JSON answer, if any. */
function errorResponseOf(cause: unknown): unknown {
  const body = cause instanceof SseHttpError ? cause.body : undefined;
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  return typeof error?.code === "number" && typeof error.message === "string" ? body : null;
}

/** The server's explained refusal of `url` (`{ error }`), or null; never opens a stream for long. */
async function refusalAt(url: string): Promise<unknown> {
  try {
    const res = await fetch(url, { headers: { accept: "text/event-stream" } });
    const type = res.headers.get("content-type") ?? "";
    if (!res.ok && type.startsWith("application/json")) {
      return errorResponseOf(new SseHttpError(res.status, await res.json()));
    }
    await res.body?.cancel();
  } catch {
    // Unreachable server: the EventSource's own error stands.
  }
  return null;
}

function parse(data: string | undefined): unknown {
  return data === undefined || data === "" ? undefined : JSON.parse(data);
}

/**
 * Subscriptions over SSE with the same wire format, results and connection states as tRPC's
 * `httpSubscriptionLink`, without its per-message machinery: that link pushes every message
 * through a web stream and a promise race, which at one message per event costs a client that
 * holds many subscriptions more than a core. Here a message is one JSON.parse and one callback.
 *
 * The EventSource reconnects dropped connections itself (sending `Last-Event-ID`, so the server
 * resumes after the last tracked id); a retryable error from the server reopens the stream with
 * that id in the input, as tRPC does; any other error ends the subscription.
 */
export function sseSubscriptionLink<TRouter extends AnyRouter>(
  options: SseSubscriptionLinkOptions,
): TRPCLink<TRouter> {
  const Source = options.EventSource ?? (FetchEventSource as EventSourceConstructor);
  return () =>
    ({ op }) =>
      observable((observer) => {
        if (op.type !== "subscription") {
          throw new Error("sseSubscriptionLink only carries subscriptions");
        }
        let lastEventId: string | undefined;
        let source: EventSourceLike | null = null;
        let state: "connecting" | "pending" = "connecting";
        let stopped = false;
        let inactivity: ReturnType<typeof setTimeout> | null = null;
        let inactivityMs = 0;

        const setState = (next: "connecting" | "pending", error: unknown) => {
          if (next === state && error === null) return;
          state = next;
          const clientError = error === null ? null : TRPCClientError.from(error as Error);
          observer.next({ result: { type: "state", state: next, error: clientError } } as never);
        };
        const armInactivity = () => {
          if (inactivityMs <= 0) return;
          if (inactivity !== null) clearTimeout(inactivity);
          inactivity = setTimeout(() => {
            setState("connecting", new Error(`no message for ${inactivityMs} ms`));
            open();
          }, inactivityMs);
        };
        const url = () => {
          const input =
            lastEventId === undefined || (op.input != null && typeof op.input !== "object")
              ? op.input
              : { ...(op.input as object | undefined), lastEventId };
          const parts: string[] = [];
          if (input !== undefined) parts.push(`input=${encodeURIComponent(JSON.stringify(input))}`);
          if (options.connectionParams !== undefined) {
            parts.push(
              `connectionParams=${encodeURIComponent(JSON.stringify(options.connectionParams))}`,
            );
          }
          const base = `${options.url.replace(/\/$/, "")}/${op.path}`;
          return parts.length === 0 ? base : `${base}?${parts.join("&")}`;
        };
        const fail = (error: unknown) => {
          stop();
          observer.error(TRPCClientError.from(error as Error));
        };
        const open = () => {
          source?.close();
          const current = new Source(url(), options.eventSourceInit);
          source = current;
          const live = (listener: (event: SseEvent) => void) => (event: SseEvent) => {
            if (source === current && !stopped) listener(event);
          };
          current.addEventListener(
            "connected",
            live((event) => {
              const client = parse(event.data) as
                | { reconnectAfterInactivityMs?: number }
                | undefined;
              inactivityMs = client?.reconnectAfterInactivityMs ?? 0;
              armInactivity();
              observer.next({ result: { type: "started" } } as never);
              setState("pending", null);
            }),
          );
          current.addEventListener("ping", live(armInactivity));
          current.addEventListener(
            "message",
            live((event) => {
              armInactivity();
              let data: unknown;
              try {
                data = parse(event.data);
              } catch (error) {
                fail(error);
                return;
              }
              const id = event.lastEventId;
              if (id) {
                lastEventId = id;
                observer.next({ result: { id, data: { id, data } } } as never);
              } else observer.next({ result: { data } } as never);
            }),
          );
          current.addEventListener(
            "serialized-error",
            live((event) => {
              const shape = parse(event.data) as { code: number; message: string };
              const error = TRPCClientError.from({ error: shape } as never);
              if (!(retryableRpcCodes as readonly number[]).includes(shape.code)) {
                fail(error);
                return;
              }
              setState("connecting", error);
              open();
            }),
          );
          current.addEventListener(
            "return",
            live(() => {
              stop();
              observer.complete();
            }),
          );
          current.addEventListener(
            "error",
            live((event) => {
              const cause = event.error ?? new Error("subscription connection failed");
              if (current.readyState !== CLOSED) {
                setState("connecting", cause);
                return;
              }
              // A refusal the server explained (e.g. 401 UNAUTHORIZED) keeps its tRPC error shape.
              // A browser's EventSource hides the answer, so one plain request asks for it.
              if (cause instanceof SseHttpError || event.error !== undefined) {
                fail(errorResponseOf(cause) ?? cause);
                return;
              }
              void refusalAt(url()).then((refusal) => {
                if (source === current && !stopped) fail(refusal ?? cause);
              });
            }),
          );
        };
        const stop = () => {
          stopped = true;
          if (inactivity !== null) clearTimeout(inactivity);
          source?.close();
        };

        observer.next({ result: { type: "state", state: "connecting", error: null } } as never);
        open();
        return stop;
      });
}
