import { spawn } from "node:child_process";
import type { CheckResult } from "@skein/contract";

export const CHECK_DEFAULT_TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 16_384;

/**
 * B9 compare: runs the person's check command (e.g. the project's tests) in one fork's worktree
 * through `sh -c`, bounded in time (the whole process group is killed) and in output (the tail
 * is kept: test runners print their verdict last). Never throws for the command's own failure.
 */
export function runCheckCommand(
  command: string,
  cwd: string,
  timeoutMs = CHECK_DEFAULT_TIMEOUT_MS,
): Promise<CheckResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], {
      cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = Buffer.alloc(0);
    let truncated = false;
    const keep = (chunk: Buffer) => {
      output = Buffer.concat([output, chunk]);
      if (output.length > MAX_OUTPUT_BYTES) {
        output = output.subarray(output.length - MAX_OUTPUT_BYTES);
        truncated = true;
      }
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    const finish = (exitCode: number | null, error?: Error) => {
      clearTimeout(timer);
      resolve({
        command,
        exitCode,
        passed: exitCode === 0 && !timedOut,
        timedOut,
        durationMs: Date.now() - started,
        output: error ? error.message : output.toString("utf8"),
        truncated,
      });
    };
    child.on("error", (error) => finish(null, error));
    child.on("close", (code) => finish(timedOut ? null : code));
  });
}
