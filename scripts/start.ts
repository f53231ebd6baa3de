/**
 * Root `pnpm start`: the API (embedded SQLite unless SKEIN_DATABASE_URL says otherwise) and the
 * web UI side by side, sharing one environment. Children are spawned directly rather than through
 * nested pnpm so SIGINT/SIGTERM reach them; when either exits, the other is stopped too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(root, "node_modules/.bin/tsx");

function start(name: string, cwd: string, script: string): ChildProcess {
  const child = spawn(tsx, [script], {
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
  start("API", "apps/api", "src/main.ts"),
  start("web UI", "apps/web", "scripts/serve.ts"),
];
let exitCode: number | null = null;

function stopAll(signal: NodeJS.Signals, code: number): void {
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
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(signal, 0));
