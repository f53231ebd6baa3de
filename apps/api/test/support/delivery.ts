import type { EventStore } from "@skein/db";
import { threadStreamId } from "@skein/domain";
import type { WireEvent } from "./recorder.ts";

/**
 * Waits until `received` holds exactly the thread's committed events after `after`, in order
 * (runs finish in the background, so the log may still grow for a moment), then returns both.
 */
export async function expectExactlyThreadLog(
  store: EventStore,
  threadId: string,
  after: number,
  received: () => readonly WireEvent[],
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = (await store.readStream(threadStreamId(threadId), after)).map((e) => e.sequence);
    const got = received().map((e) => e.sequence);
    if (got.length === log.length && got.every((sequence, i) => sequence === log[i])) return;
    const prefixOk = got.every((sequence, i) => sequence === log[i]);
    if (!prefixOk || Date.now() > deadline) {
      throw new Error(
        `delivered ${JSON.stringify(got)}\nbut the log after ${after} is ${JSON.stringify(log)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
