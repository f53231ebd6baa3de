import net from "node:net";
import type { AddressInfo } from "node:net";

export type TcpProxy = {
  port: number;
  /** Client connections currently open through the proxy. */
  readonly connections: number;
  url: string;
  /** Cuts every open connection, as a network drop would. */
  dropAll(): number;
  close(): Promise<void>;
};

/** A loopback TCP proxy a test can cut, to drop SSE connections mid-stream. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    for (const socket of pair) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => {
        sockets.delete(socket);
        pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return pairs.size;
    },
    dropAll() {
      const count = pairs.size;
      for (const socket of [...sockets]) socket.destroy();
      return count;
    },
    close() {
      for (const socket of [...sockets]) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
