import type { ServerResponse } from "node:http";
import { flushCompressed } from "./response-compression.ts";

/**
 * How long a busy stream's frames are held after its last socket write. Every socket write is a
 * system call that also delivers the bytes (on loopback, the reader's side of the kernel too):
 * under the send-load bench (200 threads × 5 messages, 100 followers of the log) the followers'
 * writes, one per commit each, were the server's largest cost, and a burst of sends waited behind
 * them. Held this long, the commits of a burst go out as one write per follower: ack p50
 * 258–295 → 167–185 ms, event-loop lag max 279–330 → 148–168 ms. A quiet stream's next frame
 * still goes out at once; sse_fanout_p99_ms (500 events/s) stayed 16–18 ms.
 */
export const BUSY_STREAM_HOLD_MS = 15;

type Flushing = { corked: boolean; lastFlushAt: number };
const streams = new WeakMap<ServerResponse, Flushing>();

/**
 * Writes `bytes`; resolves once the socket can take more (backpressure reaches the store feed).
 * Everything written until the flush goes out as one socket write (and one compressor flush):
 * the flush comes once the current burst of microtasks settles, or, within
 * BUSY_STREAM_HOLD_MS of the stream's last flush, when that much time has passed since it.
 */
export function writeFrame(res: ServerResponse, bytes: Buffer): Promise<void> | null {
  let state = streams.get(res);
  if (state === undefined) {
    state = { corked: false, lastFlushAt: Number.NEGATIVE_INFINITY };
    streams.set(res, state);
  }
  if (!state.corked) {
    const flushing = state;
    flushing.corked = true;
    res.cork();
    const flush = () => {
      flushing.corked = false;
      flushing.lastFlushAt = performance.now();
      flushCompressed(res);
      res.uncork();
    };
    const since = performance.now() - flushing.lastFlushAt;
    if (since >= BUSY_STREAM_HOLD_MS) process.nextTick(flush);
    else setTimeout(flush, BUSY_STREAM_HOLD_MS - since);
  }
  if (res.write(bytes)) return null;
  return drained(res);
}

const drainWaiters = new WeakMap<ServerResponse, { promise: Promise<void>; resolve: () => void }>();
const watchedForDrain = new WeakSet<ServerResponse>();

/**
 * Resolves at the response's next drain (or close). One pair of listeners per response for its
 * whole life: a compressed response hands `drain` listeners to its compressor, where `off` on
 * the response cannot remove them, so adding and removing per wait would pile them up.
 */
function drained(res: ServerResponse): Promise<void> {
  const waiting = drainWaiters.get(res);
  if (waiting) return waiting.promise;
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  drainWaiters.set(res, { promise, resolve });
  if (!watchedForDrain.has(res)) {
    watchedForDrain.add(res);
    const wake = () => {
      drainWaiters.get(res)?.resolve();
      drainWaiters.delete(res);
    };
    res.on("drain", wake);
    res.on("close", wake);
  }
  return promise;
}
