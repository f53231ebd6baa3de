import { promisify } from "node:util";
import { deflateRaw, inflateRaw } from "node:zlib";

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/**
 * Issue 34: a past-read checkpoint holds every projection row of its stream and a stream keeps
 * several, so as plain text they took more room than the log itself. Deflated they take about a
 * tenth (rows repeat their keys and ids). zlib works on its own threads, so packing a long
 * thread's checkpoint never holds up the event loop. Base64 keeps the store's text column.
 */
export async function packBody(text: string): Promise<string> {
  return (await deflate(Buffer.from(text))).toString("base64");
}

/** The text a stored body holds, or null when it is not a whole one. */
export async function unpackBody(body: string): Promise<string | null> {
  const packed = Buffer.from(body, "base64");
  // Buffer.from skips what is not base64: a body it does not reproduce was damaged.
  if (packed.length === 0 || packed.toString("base64") !== body) return null;
  try {
    return (await inflate(packed)).toString();
  } catch {
    return null;
  }
}
