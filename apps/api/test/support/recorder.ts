import type { StoredEvent } from "@skein/db";

/** A stored event after JSON (its `data` may be any JSON value, so the type marks it optional). */
export type WireEvent = Omit<StoredEvent, "data"> & { data?: unknown };

/** What a watch subscription delivered, as the client saw it (one entry per SSE message). */
export type Received<TSnapshot> =
  | { id: string; type: "snapshot"; data: TSnapshot }
  | { id: string; type: "event"; event: WireEvent };

type TrackedMessage<TSnapshot> = {
  id: string;
  data: { type: "snapshot"; data: TSnapshot } | { type: "event"; event: WireEvent };
};

/**
 * Collects a subscription's messages and lets a test wait for a condition on them. Pass
 * `recorder.handlers` as the subscription callbacks.
 */
export class Recorder<TSnapshot> {
  readonly messages: Received<TSnapshot>[] = [];
  errors: unknown[] = [];
  private waiters: (() => void)[] = [];

  readonly handlers = {
    onData: (message: TrackedMessage<TSnapshot>) => {
      this.messages.push(
        message.data.type === "snapshot"
          ? { id: message.id, type: "snapshot", data: message.data.data }
          : { id: message.id, type: "event", event: message.data.event },
      );
      this.wake();
    },
    onError: (error: unknown) => {
      this.errors.push(error);
      this.wake();
    },
  };

  get events(): WireEvent[] {
    return this.messages.flatMap((m) => (m.type === "event" ? [m.event] : []));
  }

  get snapshots(): TSnapshot[] {
    return this.messages.flatMap((m) => (m.type === "snapshot" ? [m.data] : []));
  }

  get lastId(): string | null {
    return this.messages.at(-1)?.id ?? null;
  }

  async until(condition: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (this.errors.length > 0) throw this.errors[0];
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`timed out waiting for ${what}; got ${this.messages.length} messages`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}
