import type { RpcErrorBody } from "./frames.ts";

/** Codex answered a request with a JSON-RPC error. */
export class CodexRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(
    readonly method: string,
    body: RpcErrorBody,
  ) {
    super(`${method} failed (${body.code}): ${body.message}`);
    this.name = "CodexRpcError";
    this.code = body.code;
    this.data = body.data;
  }
}

export type ProcessExit = {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** True when Skein asked the process to stop; false for a crash or an external kill. */
  expected: boolean;
  /** Last lines of stderr, for diagnosing a crash. */
  stderrTail: string;
  /** Set when the process could not be spawned at all. */
  spawnError?: string;
};

/** The app-server process is gone; every pending and later request fails with this. */
export class CodexProcessExitedError extends Error {
  readonly code = "codex_process_exited" as const;
  constructor(
    readonly exit: ProcessExit,
    readonly method: string | null = null,
  ) {
    const how =
      exit.spawnError ??
      (exit.signal ? `killed by ${exit.signal}` : `exited with code ${exit.exitCode}`);
    super(
      `codex app-server ${exit.expected ? "stopped" : "crashed"} (${how})` +
        (method ? ` while waiting for ${method}` : ""),
    );
    this.name = "CodexProcessExitedError";
  }
}

export class CodexRequestTimeoutError extends Error {
  readonly code = "codex_request_timeout" as const;
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} got no answer within ${timeoutMs} ms`);
    this.name = "CodexRequestTimeoutError";
  }
}
