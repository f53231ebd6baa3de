import http from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: Buffer };

/**
 * A local stand-in for a push service (RFC 8030) or a webhook receiver: records every POST and
 * answers each with the next scripted status (201 once the script is used up).
 */
export async function startReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = statuses.shift() ?? 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    statuses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
