/**
 * Serves the production UI: builds first when the build is missing or stale, then runs
 * `next start` on SKEIN_WEB_PORT (4318) / SKEIN_WEB_HOST (127.0.0.1), forwarding SIGINT/SIGTERM
 * so a parent launcher (the root `pnpm start`) can stop it gracefully.
 *
 * The browser reaches the API at SKEIN_API_URL, else http://<SKEIN_HOST or 127.0.0.1>:
 * <SKEIN_API_PORT or 4317> — read per request by the app (src/env.ts), not baked into the build.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsStale } from "./build-if-needed.ts";

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NEXT_BIN = path.join(WEB_DIR, "node_modules/next/dist/bin/next");
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const port = process.env.SKEIN_WEB_PORT?.trim() || "4318";
const host = process.env.SKEIN_WEB_HOST?.trim() || "127.0.0.1";

const { stale, reason } = buildIsStale(WEB_DIR);
if (stale) {
  process.stderr.write(`skein web: ${reason}; building the UI (about a minute)…\n`);
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: WEB_DIR,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (build.status !== 0) {
    process.stderr.write("skein web: next build failed\n");
    process.exit(build.status ?? 1);
  }
}

const server = spawn(process.execPath, [NEXT_BIN, "start", "-p", port, "-H", host], {
  cwd: WEB_DIR,
  env,
  stdio: ["ignore", "ignore", "inherit"],
});
process.stderr.write(`Web UI      http://${host.includes(":") ? `[${host}]` : host}:${port}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.kill(signal));
}
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
