import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Knows which requests are in flight and which of them are SSE streams, so shutdown can let
 * commands finish while cutting streams (clients reconnect with their cursor once we are back).
 */
export class ConnectionTracker {
  private readonly requests = new Set<ServerResponse>();
  private readonly streams = new Set<ServerResponse>();
  private idleWaiters: (() => void)[] = [];

  track(req: IncomingMessage, res: ServerResponse): void {
    const isStream = (req.headers.accept ?? "").includes("text/event-stream");
    const set = isStream ? this.streams : this.requests;
    set.add(res);
    res.once("close", () => {
      set.delete(res);
      if (this.requests.size === 0) this.notifyIdle();
    });
  }

  get activeRequests(): number {
    return this.requests.size;
  }

  get activeStreams(): number {
    return this.streams.size;
  }

  /** Drops every SSE connection without a closing message, so clients treat it as a network cut. */
  cutStreams(): void {
    for (const res of this.streams) res.destroy();
  }

  /** Resolves when no non-stream request is in flight, or after `timeoutMs`. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.requests.size === 0) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}
