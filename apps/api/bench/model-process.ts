import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

/** A fake model server running in a process of its own (see fake-*-process.ts). */
export type ModelProcess = { url: string; close(): void };

/**
 * Starts `script` (a file beside this one) and resolves with the URL it prints; `close` ends it
 * by closing its stdin. Benches that time Skein against the runtime alone run their fake model
 * this way, as a real model service would run: apart from Skein's event loop.
 */
export async function startModelProcess(
  script: "fake-gemini-process.ts" | "fake-messages-process.ts" | "fake-responses-process.ts",
): Promise<ModelProcess> {
  const file = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", file], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const [line] = await once(createInterface({ input: child.stdout! }), "line");
  return { url: String(line).trim(), close: () => child.stdin?.end() };
}
