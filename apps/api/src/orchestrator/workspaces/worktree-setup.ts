import { spawn } from "node:child_process";
import type { ThreadId, ThreadState, WorkspaceSetup } from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { Logger } from "../logger.ts";

/** A setup script running longer than this is stopped and the setup fails, in words. */
export const DEFAULT_SETUP_TIMEOUT_MS = 10 * 60_000;
/** What a setup keeps of its output: the tail (the end says why it failed). */
const OUTPUT_TAIL = 16_000;
/** Progress appends while a script runs: at most one per interval, and a bounded number. */
const PROGRESS_EVERY_MS = 1_000;
const MAX_PROGRESS_APPENDS = 30;

type Started = {
  threadId: ThreadId;
  cwd: string;
  setup: WorkspaceSetup;
  env: Record<string, string>;
};

/**
 * Issue 26: runs a project's setup script once in a thread's new worktree, showing its output on
 * the thread (`workspaceSetup`) while it runs and how it ended. A failure is recorded in words and
 * leaves the thread usable: its runs go ahead in the worktree as it is. A thread's runs wait for
 * its setup to end first (`settled`); a setup a restart cut short runs again then.
 */
export class WorktreeSetups {
  private readonly running = new Map<ThreadId, Promise<void>>();

  constructor(
    private readonly repo: AggregateRepository,
    private readonly log: Logger,
    private readonly timeoutMs = DEFAULT_SETUP_TIMEOUT_MS,
  ) {}

  /** Starts the recorded setup's script (once per thread in this process). */
  start(input: Started): void {
    if (!input.setup.script || this.running.has(input.threadId)) return;
    const run = this.run(input)
      .catch((error: unknown) =>
        this.log.warn({ threadId: input.threadId, err: error }, "worktree setup not recorded"),
      )
      .finally(() => this.running.delete(input.threadId));
    this.running.set(input.threadId, run);
  }

  /** Resolves once the thread's setup has ended (running it when a restart cut it short). */
  async settled(state: ThreadState): Promise<void> {
    const thread = state.thread;
    if (!thread) return;
    const setup = thread.workspaceSetup;
    if (!this.running.has(thread.id) && setup?.status === "running" && thread.worktreePath) {
      this.start({
        threadId: thread.id,
        cwd: thread.worktreePath,
        setup: { ...setup, output: "" },
        env: runtimeEnvOf(thread),
      });
    }
    await this.running.get(thread.id);
  }

  private async run({ threadId, cwd, setup, env }: Started): Promise<void> {
    const script = setup.script!;
    let output = "";
    let appends = Promise.resolve();
    let progressCount = 0;
    let lastProgress = 0;
    const record = (next: WorkspaceSetup) => {
      appends = appends.then(() =>
        this.repo
          .execute({ type: "UpdateThreadSettings", data: { threadId, workspaceSetup: next } })
          .then(() => undefined),
      );
      return appends;
    };
    const ended = await runScript(script, cwd, env, this.timeoutMs, (chunk) => {
      output = (output + chunk).slice(-OUTPUT_TAIL);
      const now = Date.now();
      if (progressCount < MAX_PROGRESS_APPENDS && now - lastProgress >= PROGRESS_EVERY_MS) {
        progressCount += 1;
        lastProgress = now;
        void record({ ...setup, status: "running", output }).catch(() => undefined);
      }
    });
    const error = failureInWords(script, ended, this.timeoutMs);
    await record({
      ...setup,
      status: error ? "failed" : "succeeded",
      output,
      exitCode: ended.exitCode,
      error,
    });
    this.log.info({ threadId, exitCode: ended.exitCode, error }, "worktree setup ended");
  }
}

/** The environment a thread's runtimes (and its setup script) get on top of the server's. */
export function runtimeEnvOf(thread: { port?: number | null }): Record<string, string> {
  return thread.port != null ? { PORT: String(thread.port) } : {};
}

type Ended = {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  spawnError?: string;
};

function runScript(
  script: string,
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
  onOutput: (chunk: string) => void,
): Promise<Ended> {
  return new Promise((resolve) => {
    // Its own process group, so a timeout stops what the script started too (a dev server).
    const child = spawn("sh", ["-c", script], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    timer.unref();
    child.stdout.setEncoding("utf8").on("data", onOutput);
    child.stderr.setEncoding("utf8").on("data", onOutput);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ exitCode: null, signal: null, timedOut, spawnError: error.message });
    });
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, timedOut });
    });
  });
}

function failureInWords(script: string, ended: Ended, timeoutMs: number): string | null {
  const what = `The setup script \`${script.split("\n")[0]!.slice(0, 120)}\``;
  const after =
    "; the thread works in its worktree without it (see the output above, fix the script in the project's settings, or run the steps yourself).";
  if (ended.spawnError) return `${what} could not start (${ended.spawnError})${after}`;
  if (ended.timedOut) {
    const limit =
      timeoutMs >= 60_000
        ? `${Math.round(timeoutMs / 60_000)} min`
        : `${Math.ceil(timeoutMs / 1_000)} s`;
    return `${what} was stopped after ${limit}, its time limit${after}`;
  }
  if (ended.exitCode === 0) return null;
  if (ended.exitCode === null) return `${what} was killed by ${ended.signal ?? "a signal"}${after}`;
  return `${what} exited with code ${ended.exitCode}${after}`;
}
