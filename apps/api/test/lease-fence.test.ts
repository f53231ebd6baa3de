import type { ThreadId } from "@skein/domain";
import { describe, expect, it } from "vitest";
import { LeaseLostError, untilAborted } from "../src/orchestrator/recovery/lease-fence.ts";

const THREAD = "thr_fence" as ThreadId;

async function* events(values: number[], thenHang: boolean): AsyncGenerator<number> {
  for (const value of values) yield value;
  if (thenHang) await new Promise(() => undefined);
}

describe("untilAborted", () => {
  it("passes events through until the source ends", async () => {
    const seen: number[] = [];
    for await (const value of untilAborted(
      events([1, 2], false),
      new AbortController().signal,
      THREAD,
    )) {
      seen.push(value);
    }
    expect(seen).toEqual([1, 2]);
  });

  it("fails with LeaseLostError as soon as the lease is lost, even while the source is silent", async () => {
    const abandon = new AbortController();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const value of untilAborted(events([1], true), abandon.signal, THREAD)) {
        seen.push(value);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    abandon.abort();
    await expect(reading).rejects.toBeInstanceOf(LeaseLostError);
    expect(seen).toEqual([1]);
  });
});
