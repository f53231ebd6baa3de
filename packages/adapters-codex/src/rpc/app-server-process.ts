import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { ProcessExit } from "./errors.ts";
import { withParentDeathSignal } from "@skein/adapter-kit";

export type AppServerProcessOptions = {
  binaryPath: string;
  env: Record<string, string>;
  cwd?: string;
  /** Extra CLI arguments after `app-server` (e.g. `-c key=value` overrides). */
  args?: readonly string[];
  onLine: (line: string) => void;
  onExit: (exit: ProcessExit) => void;
  onStderr?: (chunk: string) => void;
};

const STDERR_TAIL_BYTES = 8 * 1024;

/**
 * The native `codex app-server` child: newline-delimited stdout, a bounded stderr tail, and a
 * single exit report whether it stopped, crashed or never started.
 */
export class AppServerProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private stderrTail = "";
  private stopping = false;
  private exitInfo: ProcessExit | null = null;
  readonly exited: Promise<ProcessExit>;

  constructor(options: AppServerProcessOptions) {
    const run = withParentDeathSignal(options.binaryPath, ["app-server", ...(options.args ?? [])]);
    this.child = spawn(run.command, run.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let resolveExited: (exit: ProcessExit) => void = () => {};
    this.exited = new Promise((resolve) => {
      resolveExited = resolve;
    });
    const report = (exit: Omit<ProcessExit, "expected" | "stderrTail">) => {
      if (this.exitInfo) return;
      this.exitInfo = { ...exit, expected: this.stopping, stderrTail: this.stderrTail };
      options.onExit(this.exitInfo);
      resolveExited(this.exitInfo);
    };

    const lines = createInterface({
      input: this.child.stdout,
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    lines.on("line", (line) => {
      if (line.trim() !== "") options.onLine(line);
    });
    this.child.stderr.setEncoding("utf8");
    this.child.stderr.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_BYTES);
      options.onStderr?.(chunk);
    });
    // A write racing the process's death raises EPIPE here; the exit report carries the cause.
    this.child.stdin.on("error", () => {});
    this.child.on("error", (error) => {
      report({ exitCode: null, signal: null, spawnError: error.message });
    });
    // `close` (not `exit`) fires after stdout is drained, so no trailing frame is lost.
    this.child.on("close", (exitCode, signal) => report({ exitCode, signal }));
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exitInfo === null;
  }

  get exit(): ProcessExit | null {
    return this.exitInfo;
  }

  write(line: string): boolean {
    if (!this.alive || this.child.stdin.destroyed) return false;
    this.child.stdin.write(`${line}\n`);
    return true;
  }

  /** Sends a signal without marking the exit as expected (used to simulate crashes). */
  kill(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /**
   * Closes stdin (app-server exits on EOF), then escalates to SIGTERM and SIGKILL if it lingers.
   */
  async stop(graceMs = 2_000): Promise<ProcessExit> {
    if (this.exitInfo) return this.exitInfo;
    this.stopping = true;
    this.child.stdin.end();
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      const done = await raceTimeout(this.exited, graceMs);
      if (done) return done;
      this.child.kill(signal);
    }
    return this.exited;
  }
}

async function raceTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
