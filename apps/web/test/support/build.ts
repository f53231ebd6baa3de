import { spawnSync } from "node:child_process";
import path from "node:path";
import { buildIsStale } from "../../scripts/build-if-needed.ts";
import { WEB_DIR } from "./paths.ts";

/**
 * The suite serves the production build (`next start`): measured here, `next build` takes
 * ~40 s once, whereas `next dev` compiles every route on first visit (seconds each, and slower
 * still on a loaded two-core machine), which made timings flaky. Skipped when up to date.
 */
export function ensureProductionBuild(): { built: boolean; ms: number; reason: string } {
  const { stale, reason } = buildIsStale(WEB_DIR);
  if (!stale) return { built: false, ms: 0, reason };
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [path.join(WEB_DIR, "node_modules/next/dist/bin/next"), "build"],
    {
      cwd: WEB_DIR,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
      encoding: "utf8",
    },
  );
  if (result.status !== 0) {
    throw new Error(`next build failed:\n${result.stdout}\n${result.stderr}`);
  }
  return { built: true, ms: Date.now() - started, reason };
}
