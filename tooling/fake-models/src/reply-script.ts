/**
 * How the Anthropic and Gemini fakes pick a conversation reply: a prompt route first (latest
 * route wins, never consumed), then the queue's head, then the default. An error reply with
 * `times` answers that many requests before it leaves the queue (a retried failure).
 */
export type PromptRoute<R> = { match: string | RegExp; reply: R };

export function routedReply<R>(routes: readonly PromptRoute<R>[], text: string): R | undefined {
  return routes.findLast((route) =>
    typeof route.match === "string" ? text.includes(route.match) : route.match.test(text),
  )?.reply;
}

export function takeQueued<R extends { kind: string; times?: number }>(queue: R[], fallback: R): R {
  const head = queue[0];
  if (!head) return fallback;
  if (head.kind === "error" && (head.times ?? 1) > 1) {
    queue[0] = { ...head, times: (head.times ?? 1) - 1 };
    return head;
  }
  queue.shift();
  return head;
}
