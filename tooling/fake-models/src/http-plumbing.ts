import type { IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (chunk: Buffer) => parts.push(chunk));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

/** A request body as JSON, or undefined when it is empty or not JSON (fakes record, not refuse). */
export function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Listens on a free loopback port: fakes never bind anything a test could reach from outside. */
export async function listenOnLoopback(
  server: Server,
): Promise<{ port: number; url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
