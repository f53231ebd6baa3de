import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `node --import <this>` runs TypeScript from any working directory. */
export const TSX_LOADER = pathToFileURL(
  path.join(API_DIR, "node_modules/tsx/dist/loader.mjs"),
).href;

/** An apps/api entry (main.ts or a fixture) running as its own Node process. */
export class ChildServer {
  url = "";
  port = 0;
  stderr = "";
  readonly exited: Promise<number | null>;
  /** Resolves once the entry printed its URL; rejects if it exits first. */
  readonly ready: Promise<void>;

  constructor(readonly child: ChildProcess) {
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    this.ready = new Promise((resolve, reject) => {
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (chunk: string) => {
        this.stderr += chunk;
        const match = /(?:READY|Skein API)\s+(http:\/\/[^\s/]+)/.exec(this.stderr);
        if (match?.[1] && this.url === "") {
          this.url = match[1];
          this.port = Number(new URL(match[1]).port);
          resolve();
        }
      });
      void this.exited.then((code) => reject(new Error(`exited with ${code}:\n${this.stderr}`)));
    });
    // Tests that expect an early exit never await `ready`.
    this.ready.catch(() => undefined);
  }
}

export function spawnEntry(entry: string, env: Record<string, string>): ChildServer {
  const child = spawn(process.execPath, ["--import", TSX_LOADER, entry], {
    cwd: API_DIR,
    env: { ...process.env, SKEIN_LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new ChildServer(child);
}
