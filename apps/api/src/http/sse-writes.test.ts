import type { ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { BUSY_STREAM_HOLD_MS, writeFrame } from "./sse-writes.ts";

/** A response that logs what reaches it: frames written and the flushes (uncorks) between them. */
function loggedResponse() {
  const log: string[] = [];
  const res = {
    cork: () => {},
    uncork: () => log.push("flush"),
    write: (bytes: Buffer) => {
      log.push(bytes.toString());
      return true;
    },
    on: () => res,
  };
  return { log, res: res as unknown as ServerResponse };
}

/** Runs `body` with the hold's clock (timers and performance.now) under the test's control. */
async function withFakeClock(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

const flushes = (log: string[]) => log.filter((entry) => entry === "flush").length;

describe("SSE frames to the socket (issue 35: a busy stream's writes held together)", () => {
  it("a quiet stream's frame goes out once the current burst settles; frames of one burst share a flush", async () => {
    const { log, res } = loggedResponse();
    writeFrame(res, Buffer.from("a"));
    writeFrame(res, Buffer.from("b"));
    expect(flushes(log)).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a", "b", "flush"]);
  });

  it("frames right after a flush are held together until the hold has passed, then go out as one", async () => {
    await withFakeClock(async () => {
      const { log, res } = loggedResponse();
      writeFrame(res, Buffer.from("first"));
      await new Promise((resolve) => setImmediate(resolve));
      writeFrame(res, Buffer.from("second"));
      await new Promise((resolve) => setImmediate(resolve));
      writeFrame(res, Buffer.from("third"));
      await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(BUSY_STREAM_HOLD_MS - 1);
      // Still held: a busy stream is not flushed at each burst.
      expect(log).toEqual(["first", "flush", "second", "third"]);
      vi.advanceTimersByTime(1);
      expect(log).toEqual(["first", "flush", "second", "third", "flush"]);
    });
  });

  it("after a quiet spell as long as the hold, the next frame goes out at once again", async () => {
    await withFakeClock(async () => {
      const { log, res } = loggedResponse();
      writeFrame(res, Buffer.from("x"));
      await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(BUSY_STREAM_HOLD_MS);
      writeFrame(res, Buffer.from("y"));
      await new Promise((resolve) => setImmediate(resolve));
      expect(log).toEqual(["x", "flush", "y", "flush"]);
    });
  });
});
