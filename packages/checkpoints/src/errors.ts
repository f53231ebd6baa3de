/** Base class so callers can catch every checkpoint failure with one `instanceof`. */
export class CheckpointError extends Error {
  override name = "CheckpointError";
}

/** The checkpoint ref (or the commit it points to) is gone, e.g. deleted behind Skein's back. */
export class CheckpointMissingError extends CheckpointError {
  override name = "CheckpointMissingError";
  constructor(readonly ref: string) {
    super(`Checkpoint ${ref} is missing: its ref no longer resolves to a commit`);
  }
}

/** Capturing the workspace failed; the run itself may still complete (checkpoint status `error`). */
export class CheckpointCaptureError extends CheckpointError {
  override name = "CheckpointCaptureError";
  constructor(
    readonly threadId: string,
    readonly runId: string,
    cause: unknown,
  ) {
    super(`Could not capture checkpoint for ${threadId}/${runId}: ${describe(cause)}`, { cause });
  }
}

/** An operation that needs a real git repository (e.g. an isolated worktree) ran on a plain folder. */
export class NotAGitRepositoryError extends CheckpointError {
  override name = "NotAGitRepositoryError";
  constructor(
    readonly workspaceRoot: string,
    operation: string,
  ) {
    super(`Cannot ${operation}: ${workspaceRoot} is not inside a git repository`);
  }
}

/** A git invocation exited non-zero; carries what is needed to diagnose it. */
export class GitCommandError extends CheckpointError {
  override name = "GitCommandError";
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    const detail = stderr.trim().split("\n").slice(-3).join(" | ") || `exit code ${exitCode}`;
    super(`git ${args.slice(0, 3).join(" ")} failed: ${detail}`);
  }
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
