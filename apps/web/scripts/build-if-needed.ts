/**
 * Runs `next build` only when the production build is missing or older than its inputs, so a
 * root `pnpm start` costs a build (~30 s on two cores) once, not on every start.
 * Usage: `tsx scripts/build-if-needed.ts [--print]` (`--print` only says whether it would build).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const INPUTS = [
  "src",
  "next.config.ts",
  "package.json",
  "tsconfig.json",
  // The client is bundled into the browser code (from its dist/, built from this source).
  "../../packages/client/src",
  // So are the input rules the forms apply (`@skein/domain/inputs`).
  "../../packages/domain/src/inputs",
];

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

export function buildIsStale(webDir = WEB_DIR): { stale: boolean; reason: string } {
  const buildId = path.join(webDir, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return { stale: true, reason: "no production build yet" };
  const builtAt = statSync(buildId).mtimeMs;
  for (const input of INPUTS) {
    if (newestMtime(path.join(webDir, input)) > builtAt) {
      return { stale: true, reason: `${input} changed since the last build` };
    }
  }
  return { stale: false, reason: "build is up to date" };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { stale, reason } = buildIsStale();
  process.stderr.write(`skein web: ${reason}${stale ? ", building…" : ""}\n`);
  if (stale && !process.argv.includes("--print")) {
    const result = spawnSync("pnpm", ["exec", "next", "build"], {
      cwd: WEB_DIR,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    });
    process.exit(result.status ?? 1);
  }
}
