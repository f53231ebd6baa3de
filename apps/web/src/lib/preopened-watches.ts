import type { WatchObserver } from "./use-watch.ts";

/**
 * Watches opened ahead of the page that reads them. Switching threads is a navigation: the
 * router asks the web server for the new page, and only once it renders does the thread's frame
 * open its watch and wait for the snapshot — two round trips one after the other. Opened on the
 * click instead, the watch's snapshot travels while the page does, and the frame adopts the
 * subscription (`adoptWatch`) instead of opening another: what arrived so far is replayed to it,
 * in order, then it receives the rest directly. One never adopted is closed after `ADOPT_MS`.
 */
type Message<T> =
  | { kind: "data"; value: Parameters<WatchObserver<T>["onData"]>[0] }
  | { kind: "error"; error: unknown }
  | { kind: "state"; change: Parameters<WatchObserver<T>["onConnectionStateChange"]>[0] };

type Preopened = {
  subscription: { unsubscribe(): void };
  /** Messages not yet handed to an adopter, in arrival order. */
  buffered: Message<unknown>[];
  /** Set once adopted: messages go to it (after the buffered ones are replayed). */
  observer: WatchObserver<unknown> | null;
  timer: ReturnType<typeof setTimeout>;
};

/** A navigation that has not rendered its page by then was abandoned or is very slow. */
export const ADOPT_MS = 10_000;

const preopened = new Map<string, Preopened>();

function deliver<T>(observer: WatchObserver<T>, message: Message<T>): void {
  if (message.kind === "data") observer.onData(message.value);
  else if (message.kind === "error") observer.onError(message.error);
  else observer.onConnectionStateChange(message.change);
}

/**
 * Opens the watch `key` now (a fresh subscription: `open` starts without a cursor), unless one
 * is already waiting to be adopted. Says whether it opened one.
 */
export function preopenWatch<T>(
  key: string,
  open: (observer: WatchObserver<T>) => { unsubscribe(): void },
): boolean {
  if (preopened.has(key)) return false;
  const entry: Preopened = {
    subscription: { unsubscribe() {} },
    buffered: [],
    observer: null,
    timer: setTimeout(() => {
      if (preopened.get(key) !== entry) return;
      preopened.delete(key);
      entry.subscription.unsubscribe();
    }, ADOPT_MS),
  };
  const receive = (message: Message<T>) => {
    if (entry.observer === null) entry.buffered.push(message as Message<unknown>);
    else deliver(entry.observer as WatchObserver<T>, message);
  };
  preopened.set(key, entry);
  entry.subscription = open({
    onData: (value) => receive({ kind: "data", value }),
    onError: (error) => receive({ kind: "error", error }),
    onConnectionStateChange: (change) => receive({ kind: "state", change }),
  });
  return true;
}

/**
 * The latest snapshot the preopened watch `key` has received, if any: a page can draw it in its
 * first render instead of after adopting the watch (the replay then brings nothing new).
 */
export function preopenedSnapshot<T>(key: string): T | undefined {
  const buffered = preopened.get(key)?.buffered ?? [];
  for (let i = buffered.length - 1; i >= 0; i -= 1) {
    const message = buffered[i] as Message<T>;
    if (message.kind === "data" && message.value.data.type === "snapshot")
      return message.value.data.data;
  }
  return undefined;
}

/**
 * Hands the preopened watch `key` to `observer`, or `null` when there is none. The buffered
 * messages are replayed in a microtask (a subscription never calls back before `subscribe`
 * returns); messages arriving meanwhile queue behind them. Unsubscribing closes it.
 */
export function adoptWatch<T>(
  key: string,
  observer: WatchObserver<T>,
): { unsubscribe(): void } | null {
  const entry = preopened.get(key);
  if (entry === undefined) return null;
  preopened.delete(key);
  clearTimeout(entry.timer);
  let closed = false;
  // Until the replay runs, new messages keep landing in `buffered`, behind the earlier ones.
  queueMicrotask(() => {
    if (closed) return;
    for (let i = 0; i < entry.buffered.length && !closed; i += 1)
      deliver(observer, entry.buffered[i] as Message<T>);
    entry.buffered = [];
    entry.observer = closed ? null : (observer as WatchObserver<unknown>);
  });
  return {
    unsubscribe() {
      closed = true;
      entry.subscription.unsubscribe();
    },
  };
}
