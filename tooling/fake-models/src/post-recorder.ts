import { createServer, type IncomingHttpHeaders } from "node:http";
import { listenOnLoopback } from "./http-plumbing.ts";

export type RecordedPost = { path: string; headers: IncomingHttpHeaders; body: Buffer };

/**
 * A loopback stand-in for a push service (RFC 8030) or a webhook receiver: records every request
 * and answers each with the next scripted status (201 once the script is used up).
 */
export async function startPostRecorder(statuses: number[] = []) {
  const received: RecordedPost[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statuses.shift() ?? 201;
      res.end();
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, received, statuses, close };
}
