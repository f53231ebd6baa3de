/**
 * Root `pnpm start`: the API (embedded SQLite unless SKEIN_DATABASE_URL says otherwise) and the
 * web UI side by side, sharing one environment. Plain JavaScript under plain node, so the only
 * processes above the servers are pnpm and this small launcher. The API runs as built JavaScript
 * (apps/api/dist/main.js), bundled first when it is missing or older than its sources. Children
 * are spawned directly rather than through nested pnpm so SIGINT/SIGTERM reach them; when either
 * exits, the other is stopped too.
 */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const apiDir = path.join(root, "apps/api");
const TSX_LOADER = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;

const build = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
  cwd: apiDir,
  stdio: "inherit",
});
if (build.status !== 0) {
  process.stderr.write("skein: could not build the API (apps/api/scripts/build.mjs)\n");
  process.exit(build.status ?? 1);
}

/** @returns {import("node:child_process").ChildProcess} */
function start(name, cwd, command, args) {
  const child = spawn(command, args, {
    cwd: path.join(root, cwd),
    env: process.env,
    stdio: "inherit",
  });
  child.on("error", (error) => {
    process.stderr.write(`skein: could not start the ${name}: ${error.message}\n`);
    stopAll("SIGTERM", 1);
  });
  return child;
}

const children = [
  start("API", "apps/api", process.execPath, ["dist/main.js"]),
  // The web launcher builds the UI when needed, then runs `next start`. Node with tsx's loader
  // runs it in one process (the tsx CLI would keep a second one above it, issue 34 item 5).
  start("web UI", "apps/web", process.execPath, ["--import", TSX_LOADER, "scripts/serve.ts"]),
];
/** @type {number | null} */
let exitCode = null;

function stopAll(signal, code) {
  if (exitCode === null) exitCode = code;
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

for (const child of children) {
  child.on("exit", (code) => {
    stopAll("SIGTERM", code ?? 0);
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null))
      process.exit(exitCode ?? 0);
  });
}
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stopAll(signal, 0));
