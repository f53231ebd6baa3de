import { Slots } from "@skein/concurrency";
import { GitCommandError } from "./errors.ts";
import { GitHost } from "./git-host/git-host.ts";

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
 * The environment every git command starts from, read when the git helper starts. The parent
 * process may itself run under git (hooks, CI) with GIT_DIR & co. set; inheriting those would
 * point our commands at the wrong repository or index.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("GIT_")) env[key] = value;
  }
  env.LC_ALL = "C";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  // A copy of process.env with some keys dropped; typed loosely so apps that narrow ProcessEnv
  // (Next.js requires NODE_ENV) can type-check this package too.
  return env as NodeJS.ProcessEnv;
}

/**
 * Issue 35: git processes running at once, server-wide: a busy server's runs all capturing
 * checkpoints at once started hundreds in a burst, which the machine's cores then shared with the
 * server answering requests. 2 cores keep 4 git processes busy.
 */
const gitProcesses = new Slots(4);
/** Where they are started (see git-host.ts): not in this process. */
const host = new GitHost(cleanEnv);

export function runGit(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
  return gitProcesses.run(() => spawnGit(args, options));
}

async function spawnGit(args: readonly string[], options: GitRunOptions): Promise<GitResult> {
  const fullArgs = FORCED_CONFIG.flatMap((kv) => ["-c", kv]).concat(args);
  const { code, stdout, stderr } = await host.run({
    args: fullArgs,
    cwd: options.cwd,
    env: options.env ?? {},
    input: options.input ?? "",
  });
  const exitCode = code ?? -1;
  if (!(options.okCodes ?? [0]).includes(exitCode)) throw new GitCommandError(args, code, stderr);
  return { stdout, stderr, exitCode };
}

/** Convenience: stdout as trimmed text. */
export async function gitText(args: readonly string[], options: GitRunOptions): Promise<string> {
  const { stdout } = await runGit(args, options);
  return stdout.toString("utf8").trim();
}
