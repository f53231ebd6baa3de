import { type ChildProcess, spawn } from "node:child_process";
import type { SpawnedProcess, SpawnOptions } from "@anthropic-ai/claude-agent-sdk";
import { withParentDeathSignal } from "@skein/adapter-kit";

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export type TrackedProcess = {
  readonly pid: number | undefined;
  readonly startedAt: number;
  readonly exited: Promise<ProcessExit>;
  alive(): boolean;
  /** The last few KB of stderr, for error messages. */
  stderrTail(): string;
  kill(signal?: NodeJS.Signals): boolean;
};

export type SpawnHooks = {
  onStderr?: (line: string) => void;
};

/**
 * Spawns Claude Code processes for the SDK (`spawnClaudeCodeProcess`) and keeps count, so the
 * runtime can prove that one session reuses one process and can see a process die.
 */
export type ProcessTracker = {
  spawn(
    options: SpawnOptions,
    hooks?: SpawnHooks,
  ): { process: SpawnedProcess; tracked: TrackedProcess };
  /** Processes started so far (alive or not). */
  readonly spawnCount: number;
  live(): TrackedProcess[];
};

const STDERR_TAIL = 8192;

function track(child: ChildProcess, hooks: SpawnHooks): TrackedProcess {
  let tail = "";
  let partial = "";
  let exit: ProcessExit | null = null;
  // Piped stderr must be drained or the child blocks once the pipe buffer fills.
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL);
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.trim().length > 0) hooks.onStderr?.(line);
  });
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
    child.once("error", () => {
      exit ??= { code: null, signal: null };
      resolve(exit);
    });
  });
  return {
    pid: child.pid,
    startedAt: Date.now(),
    exited,
    alive: () => exit === null,
    stderrTail: () => tail,
    kill: (signal = "SIGTERM") => child.kill(signal),
  };
}

export function createProcessTracker(): ProcessTracker {
  let spawnCount = 0;
  const live = new Set<TrackedProcess>();
  return {
    spawn(options, hooks = {}) {
      const run = withParentDeathSignal(options.command, options.args);
      const child = spawn(run.command, run.args, {
        cwd: options.cwd,
        env: options.env,
        // The SDK forwards an abort signal that fires only after its graceful stdin-EOF window.
        signal: options.signal,
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
      spawnCount++;
      const tracked = track(child, hooks);
      live.add(tracked);
      void tracked.exited.then(() => live.delete(tracked));
      return { process: child as SpawnedProcess, tracked };
    },
    get spawnCount() {
      return spawnCount;
    },
    live: () => [...live],
  };
}
