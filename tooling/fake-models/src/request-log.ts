/** What every fake server records of a request: its arrival order and what kind of call it was. */
export type LoggedRequest = { index: number; kind: string };

export type RequestLog<R extends LoggedRequest> = {
  readonly requests: R[];
  /** Appends a request and wakes every waiter it satisfies. */
  record(request: R): void;
  /** Resolves with the first recorded request matching `predicate` (past or future). */
  waitForRequest(predicate: (request: R) => boolean, timeoutMs?: number): Promise<R>;
  /** Resolves once `count` conversation requests have arrived, with the `count`-th one. */
  waitForConversationRequests(count: number, timeoutMs?: number): Promise<R>;
  conversationRequests(): R[];
};

type Waiter<R> = { predicate: (r: R) => boolean; resolve: (r: R) => void };

/**
 * The request log a scripted model server keeps, so tests can wait on "the third conversation
 * request" without polling. `label` names the server in timeout errors.
 */
export function createRequestLog<R extends LoggedRequest>(label: string): RequestLog<R> {
  const requests: R[] = [];
  const waiters = new Set<Waiter<R>>();

  function waitForRequest(predicate: (r: R) => boolean, timeoutMs = 15_000): Promise<R> {
    const seen = requests.find(predicate);
    if (seen) return Promise.resolve(seen);
    return new Promise<R>((resolve, reject) => {
      const waiter: Waiter<R> = {
        predicate,
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`${label}: no matching request within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  }

  return {
    requests,
    record(request) {
      requests.push(request);
      for (const waiter of waiters) {
        if (!waiter.predicate(request)) continue;
        waiters.delete(waiter);
        waiter.resolve(request);
      }
    },
    waitForRequest,
    waitForConversationRequests: (count, timeoutMs) =>
      waitForRequest(
        (r) =>
          r.kind === "conversation" &&
          requests.filter((x) => x.kind === "conversation" && x.index <= r.index).length >= count,
        timeoutMs,
      ),
    conversationRequests: () => requests.filter((r) => r.kind === "conversation"),
  };
}
