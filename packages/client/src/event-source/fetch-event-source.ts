import { SseParser } from "./sse-parser.ts";

export type FetchEventSourceInit = {
  /** Sent with every (re)connection, e.g. `authorization`. */
  headers?: Record<string, string>;
  withCredentials?: boolean;
  /** Delay before reconnecting after a drop, until the server sends `retry:`; default 500 ms. */
  retryMs?: number;
  fetch?: typeof fetch;
};

type Listener = (event: FetchEventSourceEvent) => void;

/** What listeners receive; shaped like the DOM's `MessageEvent` where tRPC reads it. */
export type FetchEventSourceEvent = {
  type: string;
  data?: string;
  lastEventId?: string;
  /** For `error` events: what went wrong, when known. */
  error?: unknown;
};

/** A refused connection (non-2xx or not SSE): the status and the JSON answer, if there was one. */
export class SseHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`SSE request failed: HTTP ${status}`);
    this.name = "SseHttpError";
  }
}

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

/**
 * An `EventSource` over `fetch`, for Node (which has no EventSource before v22) and for callers
 * that must send headers (`Authorization`), which the browser's EventSource cannot. It follows
 * the EventSource contract tRPC's `httpSubscriptionLink` relies on: `open`/`message`/named events,
 * `error` with `readyState` CONNECTING while it reconnects (sending `Last-Event-ID`, so the server
 * resumes after the last event received) and CLOSED when it gives up (a non-2xx answer or a
 * non-SSE content type, as the spec says).
 */
export class FetchEventSource {
  static readonly CONNECTING = CONNECTING;
  static readonly OPEN = OPEN;
  static readonly CLOSED = CLOSED;
  readonly CONNECTING = CONNECTING;
  readonly OPEN = OPEN;
  readonly CLOSED = CLOSED;
  readonly url: string;
  readonly withCredentials: boolean;
  readyState: number = CONNECTING;

  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly abort = new AbortController();
  private readonly headers: Record<string, string>;
  private readonly fetchImpl: typeof fetch;
  private retryMs: number;
  private lastEventId = "";

  constructor(url: string, init: FetchEventSourceInit = {}) {
    this.url = url;
    this.withCredentials = init.withCredentials ?? false;
    this.headers = init.headers ?? {};
    this.retryMs = init.retryMs ?? 500;
    this.fetchImpl = init.fetch ?? globalThis.fetch;
    void this.run();
  }

  addEventListener(type: string, listener: Listener): void {
    let set = this.listeners.get(type);
    if (set === undefined) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener);
  }

  removeEventListener(type: string, listener: Listener): void {
    this.listeners.get(type)?.delete(listener);
  }

  close(): void {
    this.readyState = CLOSED;
    this.abort.abort();
  }

  private emit(event: FetchEventSourceEvent): void {
    for (const listener of [...(this.listeners.get(event.type) ?? [])]) listener(event);
  }

  private async run(): Promise<void> {
    while (this.readyState !== CLOSED) {
      const outcome = await this.connectOnce();
      if (this.readyState === CLOSED) return;
      if (outcome.fatal) {
        this.readyState = CLOSED;
        this.emit({ type: "error", error: outcome.error });
        return;
      }
      this.readyState = CONNECTING;
      this.emit({ type: "error", error: outcome.error });
      await this.sleep(this.retryMs);
    }
  }

  /** One connection, read to its end. `fatal` means the spec's "fail the connection". */
  private async connectOnce(): Promise<{ fatal: boolean; error: unknown }> {
    const headers: Record<string, string> = {
      accept: "text/event-stream",
      "cache-control": "no-cache",
      ...this.headers,
    };
    if (this.lastEventId !== "") headers["last-event-id"] = this.lastEventId;
    let response: Response;
    try {
      response = await this.fetchImpl(this.url, {
        headers,
        signal: this.abort.signal,
        credentials: this.withCredentials ? "include" : "same-origin",
      });
    } catch (error) {
      return { fatal: false, error };
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.ok || !type.startsWith("text/event-stream") || response.body === null) {
      const body = type.startsWith("application/json")
        ? await response.json().catch(() => undefined)
        : await response.body?.cancel().catch(() => undefined);
      const error = new SseHttpError(response.status, body);
      return { fatal: true, error };
    }
    this.readyState = OPEN;
    this.emit({ type: "open" });
    const parser = new SseParser(this.lastEventId);
    // Decoded in place rather than through a TextDecoderStream: one web-stream hop less per chunk,
    // which is most of the client's cost when one process holds many subscriptions.
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { fatal: false, error: new Error("SSE stream ended") };
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          this.emit({ type: event.type, data: event.data, lastEventId: event.lastEventId });
        }
        this.lastEventId = parser.lastEventId;
        if (parser.retryMs !== null) this.retryMs = parser.retryMs;
        if (this.readyState === CLOSED) return { fatal: false, error: null };
      }
    } catch (error) {
      return { fatal: false, error };
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const signal = this.abort.signal;
      function done() {
        signal.removeEventListener("abort", done);
        clearTimeout(timer);
        resolve();
      }
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
