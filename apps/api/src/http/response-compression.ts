import type { IncomingMessage, ServerResponse } from "node:http";
import compression from "compression";

/**
 * Issue 34: tRPC answers and the watch streams (SSE) go out brotli- or gzip-compressed when the
 * client accepts it (browsers and Node's fetch do); a thread's detail is mostly repeated keys
 * and ids, so it shrinks to a fraction. Answers under 1 KB go as they are. A stream's frames
 * are held by the compressor until `flushCompressed` (lean-sse.ts calls it after each burst).
 */
const compress = compression();

/** Runs `serve` with `res` compressing what it writes, per the request's Accept-Encoding. */
export function withCompression(
  req: IncomingMessage,
  res: ServerResponse,
  serve: () => void,
): void {
  compress(req, res, () => serve());
}

/** Sends what the compressor holds (a no-op on a response that is not compressed). */
export function flushCompressed(res: ServerResponse): void {
  (res as ServerResponse & { flush?: () => void }).flush?.();
}
