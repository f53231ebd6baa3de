import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildIsStale } from "../../scripts/build-if-needed.ts";
import { WEB_DIR } from "./paths.ts";

/** Held while one process builds: the browser files run two at a time, and both may find it stale. */
const LOCK_DIR = path.join(WEB_DIR, ".next-build.lock");
/** A build takes ~40 s once; a lock older than this was left by a process that died. */
const LOCK_STALE_MS = 10 * 60_000;

/**
 * The suite serves the production build (`next start`): measured here, `next build` takes
 * ~40 s once, whereas `next dev` compiles every route on first visit (seconds each, and slower
 * still on a loaded two-core machine), which made timings flaky. Skipped when up to date; when
 * another test process is building, waits for it instead of building the same output twice.
 * Editing the UI's sources during a run rebuilds it under the other file's running server (its
 * pages then answer 500): in a checkout being edited, run the browser files after the edit.
 */
export async function ensureProductionBuild(): Promise<{
  built: boolean;
  ms: number;
  reason: string;
}> {
  for (;;) {
    const { stale, reason } = buildIsStale(WEB_DIR);
    if (!stale) return { built: false, ms: 0, reason };
    if (takeLock()) {
      try {
        return build(reason);
      } finally {
        rmSync(LOCK_DIR, { recursive: true, force: true });
      }
    }
    await sleep(500);
  }
}

function build(reason: string): { built: boolean; ms: number; reason: string } {
  // Checked again under the lock: the process that held it may have just built.
  if (!buildIsStale(WEB_DIR).stale) return { built: false, ms: 0, reason: "built by another file" };
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

/** mkdir is atomic: of two processes, one creates the folder. A dead holder's lock is taken over. */
function takeLock(): boolean {
  try {
    mkdirSync(LOCK_DIR);
    writeFileSync(path.join(LOCK_DIR, "owner"), `${process.pid} ${Date.now()}`);
    return true;
  } catch {
    if (!holderGone()) return false;
    rmSync(LOCK_DIR, { recursive: true, force: true });
    return false;
  }
}

function holderGone(): boolean {
  let owner: string;
  try {
    owner = readFileSync(path.join(LOCK_DIR, "owner"), "utf8");
  } catch {
    // Being written right now, or its writer died between the folder and the file.
    try {
      return Date.now() - statSync(LOCK_DIR).mtimeMs > LOCK_STALE_MS;
    } catch {
      return true;
    }
  }
  const [pid, since] = owner.split(" ").map(Number);
  if (Date.now() - (since ?? 0) > LOCK_STALE_MS) return true;
  try {
    process.kill(pid ?? 0, 0);
    return false;
  } catch {
    return true;
  }
}
