import { spawn } from "node:child_process";
import { GitCommandError } from "./errors.ts";

export type GitRunOptions = {
  cwd: string;
  /** Extra environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, ...). */
  env?: Record<string, string>;
  input?: string | Buffer;
  /** Exit codes that count as success (e.g. `diff --quiet` uses 1). */
  okCodes?: readonly number[];
};

export type GitResult = { stdout: Buffer; stderr: string; exitCode: number };

/**
 * Settings forced on every invocation: Skein works on private indexes and must not pick up the
 * user's fsmonitor/split-index machinery (tied to their real index) or print quoted paths.
 */
const FORCED_CONFIG = [
  "core.quotePath=false",
  "core.fsmonitor=false",
  "core.splitIndex=false",
  "advice.addEmbeddedRepo=false",
  "advice.detachedHead=false",
] as const;

/**
 * The parent process may itself run under git (hooks, CI) with GIT_DIR & co. set; inheriting those
 * would point our commands at the wrong repository or index.
 */
function cleanEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("GIT_")) env[key] = value;
  }
  env.LC_ALL = "C";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  // A copy of process.env with some keys dropped; typed loosely so apps that narrow ProcessEnv
  // (Next.js requires NODE_ENV) can type-check this package too.
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
  const fullArgs = FORCED_CONFIG.flatMap((kv) => ["-c", kv]).concat(args);
  return new Promise((resolve, reject) => {
    const child = spawn("git", fullArgs, {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const stderr = Buffer.concat(err).toString("utf8");
      const exitCode = code ?? -1;
      const ok = options.okCodes ?? [0];
      if (!ok.includes(exitCode)) {
        reject(new GitCommandError(args, code, stderr));
        return;
      }
      resolve({ stdout: Buffer.concat(out), stderr, exitCode });
    });
    child.stdin.on("error", () => {
      // git may exit before reading its input; the exit code reports the real problem.
    });
    child.stdin.end(options.input ?? "");
  });
}

/** Convenience: stdout as trimmed text. */
export async function gitText(args: readonly string[], options: GitRunOptions): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.toString("utf8").trim();
}
