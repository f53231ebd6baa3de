import type { EventStore, StoredEvent } from "@skein/db";
import type { WireEvent } from "./recorder.ts";

/**
 * Waits until `received` holds exactly the committed events after `after` that `selected` keeps
 * (in log order, each once); fails at once on a wrong prefix, or at the deadline.
 */
export async function expectExactlySelectedLog(
  store: EventStore,
  after: number,
  selected: (event: StoredEvent) => boolean,
  received: () => readonly WireEvent[],
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log: number[] = [];
    for (let from = after; ; ) {
      const page = await store.readAll(from, 500);
      for (const event of page) if (selected(event)) log.push(event.sequence);
      if (page.length < 500) break;
      from = page.at(-1)!.sequence;
    }
    const got = received().map((e) => e.sequence);
    if (got.length === log.length && got.every((sequence, i) => sequence === log[i])) return;
    const prefixOk = got.every((sequence, i) => sequence === log[i]);
    if (!prefixOk || Date.now() > deadline) {
      throw new Error(
        `delivered ${JSON.stringify(got)}\nbut the selected log after ${after} is ${JSON.stringify(log)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
