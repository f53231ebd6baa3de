import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { API_DIR, TSX_LOADER, WEB_DIR } from "./paths.ts";

export type Child = {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(): Promise<void>;
};

/**
 * A port nobody listens on right now (the web UI's must be known before the API starts: CORS).
 * Taken below the kernel's ephemeral range: a port from `listen(0)` is free only until the next
 * outgoing connection, and a test that opens thousands (the 10,000-run thread's) took the UI's
 * port before `next start` bound it (EADDRINUSE in CI).
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  const high = Math.max(low + 1_000, ephemeralLow);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await listenable(port)) return port;
  }
  throw new Error(`no free port found between ${low} and ${high}`);
}

/** The kernel's range for ports it hands out itself (Linux; the usual default elsewhere). */
function ephemeralRange(): [number, number] {
  try {
    const [from, to] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
      .trim()
      .split(/\s+/)
      .map(Number);
    if (from && to) return [from, to];
  } catch {
    // not Linux
  }
  return [32_768, 60_999];
}

function listenable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill("SIGTERM");
    });
}

/**
 * `apps/api/src/main.ts` as its own process, on a temp data dir, with the given provider env.
 * `seed` writes into the data dir before the API opens it (a large history made offline).
 */
export async function startApi(options: {
  webPort: number;
  env: Record<string, string>;
  seed?: (dataDir: string) => Promise<void>;
}): Promise<Child & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "skein-web-data-"));
  try {
    await options.seed?.(dataDir);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const child = spawn(process.execPath, ["--import", TSX_LOADER, "src/main.ts"], {
    cwd: API_DIR,
    env: {
      ...process.env,
      ...options.env,
      SKEIN_API_PORT: "0",
      SKEIN_WEB_PORT: String(options.webPort),
      SKEIN_DATA_DIR: dataDir,
      SKEIN_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /Skein API\s+(http:\/\/[^\s/]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`API exited with ${code}:\n${output}`)));
  });
  const stop = stopper(child);
  return {
    child,
    url,
    dataDir,
    output: () => output,
    async stop() {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `next start` (the production build) or `next dev`, serving the UI for a given API. */
export async function startWeb(options: {
  port: number;
  apiUrl: string;
  mode: "start" | "dev";
}): Promise<Child> {
  const nextBin = path.join(WEB_DIR, "node_modules/next/dist/bin/next");
  const child = spawn(
    process.execPath,
    [nextBin, options.mode, "-p", String(options.port), "-H", "127.0.0.1"],
    {
      cwd: WEB_DIR,
      env: { ...process.env, SKEIN_API_URL: options.apiUrl, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next ${options.mode} exited:\n${output}`);
    try {
      const response = await fetch(url);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next ${options.mode} did not answer:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { child, url, output: () => output, stop: stopper(child) };
}
