import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chmodSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A PostgreSQL server of a test's own (initdb in a temp dir, its own loopback port), for tests
 * that restart or stop the database: the shared server on 5432 is never touched. As root, the
 * server runs as the `postgres` user (PostgreSQL refuses to run as root).
 */
export type PrivatePostgres = {
  url: string;
  /**
   * `pg_ctl restart -m fast`: every open connection is cut, then the server is back. Async, so
   * the process under test keeps running (and meets the outage) meanwhile.
   */
  restart(): Promise<void>;
  stop(): void;
  start(): void;
  /** Stops the server and removes its files. */
  destroy(): void;
};

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;

function pgTool(tool: string, args: string[]): string {
  const command = asRoot ? "runuser" : tool;
  const full = asRoot ? ["-u", "postgres", "--", tool, ...args] : args;
  return execFileSync(command, full, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

const execFileAsync = promisify(execFile);

async function pgToolAsync(tool: string, args: string[]): Promise<void> {
  const command = asRoot ? "runuser" : tool;
  const full = asRoot ? ["-u", "postgres", "--", tool, ...args] : args;
  await execFileAsync(command, full, { encoding: "utf8" });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-private-pg-"));
  chmodSync(dir, 0o700);
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, "data");
  const port = await freePort();
  pgTool("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const ctl = (...args: string[]) =>
    pgTool("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", ...args]);
  ctl("start");
  let running = true;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => {
      await pgToolAsync("pg_ctl", [
        "-D",
        data,
        "-o",
        options,
        "-l",
        path.join(dir, "log"),
        "-w",
        "restart",
        "-m",
        "fast",
      ]);
      running = true;
    },
    stop: () => {
      ctl("stop", "-m", "fast");
      running = false;
    },
    start: () => {
      ctl("start");
      running = true;
    },
    destroy: () => {
      if (running) {
        try {
          ctl("stop", "-m", "immediate");
        } catch {
          // Already down.
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
