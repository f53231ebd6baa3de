/// <reference path="./compression.d.ts" />
import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";

/**
 * Issue 34: tRPC answers and the watch streams (SSE) go out brotli- or gzip-compressed when the
 * client accepts it (browsers and Node's fetch do); a thread's detail is mostly repeated keys
 * and ids, so it shrinks to a fraction. Answers under 1 KB go as they are. A stream's frames
 * are held by the compressor until `flushCompressed` (sse-writes.ts calls it at each flush).
 */
const compress = compression();

/**
 * Left plain: the sidebar's watch, which every open window holds. Its frames are a few hundred
 * bytes each, and compressing each one for each subscriber (a compressor flush per frame)
 * tripled the server's CPU at 100 subscribers in sse-fanout.bench.ts (16% → 45% of a core) to
 * save little. The log's watch too (issue 35): one small event per frame, and at 100 followers
 * of a busy log their compressor flushes were the largest share of the server's event loop
 * (send-load.bench.ts, 40 threads: 41 of its 183 busy seconds). A thread's watch keeps
 * compression: its snapshot is a whole window of runs.
 *
 * Mutations (POST) go plain too: their answers are receipts of a few dozen bytes, and the
 * compressor, not knowing a streamed answer's length, compressed each one anyway on libuv's
 * thread pool, where it queued behind the checkpoints' file work. At 100 threads × 5 messages
 * that queue held a send's answer for ~1.5 s after it was decided (p50 of the server's own time
 * 1.6 s → 0.13 s without it).
 */
const PLAIN_PATHS: ReadonlySet<string> = new Set([
  "/trpc/thread.watchShells",
  "/trpc/events.watch",
]);

/** Runs `serve` with `res` compressing what it writes, per the request's Accept-Encoding. */
export function withCompression(
  req: IncomingMessage,
  res: ServerResponse,
  serve: () => void,
): void {
  const pathname = (req.url ?? "/").split("?")[0] ?? "/";
  if (req.method === "POST" || PLAIN_PATHS.has(pathname)) serve();
  else compress(req, res, () => serve());
}

/** Sends what the compressor holds (a no-op on a response that is not compressed). */
export function flushCompressed(res: ServerResponse): void {
  (res as ServerResponse & { flush?: () => void }).flush?.();
}
