import { CheckpointError, CheckpointMissingError } from "./errors.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";

export const CHECKPOINT_REF_PREFIX = "refs/skein/checkpoints/";

/** Ids end up as ref path segments, so only characters git accepts everywhere are allowed. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
const REF_PATTERN =
  /^refs\/skein\/checkpoints\/[A-Za-z0-9][A-Za-z0-9_-]{0,127}\/[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function checkpointRef(threadId: string, runId: string): string {
  for (const [label, value] of [
    ["threadId", threadId],
    ["runId", runId],
  ] as const) {
    if (!SEGMENT.test(value)) {
      throw new CheckpointError(`Invalid ${label} "${value}": use letters, digits, "_" and "-"`);
    }
  }
  return `${CHECKPOINT_REF_PREFIX}${threadId}/${runId}`;
}

/** Guards every ref taken from callers: only Skein's own hidden refs are ever read or restored. */
export function assertCheckpointRef(ref: string): void {
  if (!REF_PATTERN.test(ref)) {
    throw new CheckpointError(
      `"${ref}" is not a Skein checkpoint ref (${CHECKPOINT_REF_PREFIX}<thread>/<run>)`,
    );
  }
}

/** The thread base travels in each commit message so diffs "from the thread start" need no store. */
const BASE_TRAILER = "Skein-Base";

export function checkpointMessage(threadId: string, runId: string, base: string | null): string {
  return [
    `skein checkpoint ${threadId}/${runId}`,
    "",
    `Skein-Thread: ${threadId}`,
    `Skein-Run: ${runId}`,
    `${BASE_TRAILER}: ${base ?? "none"}`,
    "",
  ].join("\n");
}

export type ResolvedCheckpoint = {
  ref: string;
  commit: string;
  tree: string;
  /** Commit the thread started from (repo HEAD at first capture), or null for an empty tree. */
  base: string | null;
};

/**
 * One git call: ref → commit, tree and base; a vanished ref or object becomes a typed error.
 * `cat-file --batch` resolves the one ref it is given: `for-each-ref <ref>` (as before) matched
 * it as a prefix and read every loose ref beside it, so on a thread of 1,000 runs each of a
 * run's four lookups took ~15 ms instead of ~4.
 */
export async function resolveCheckpoint(ctx: GitContext, ref: string): Promise<ResolvedCheckpoint> {
  assertCheckpointRef(ref);
  const { stdout } = await runGit(["cat-file", "--batch"], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
    input: `${ref}\n`,
  });
  // "<commit> commit <size>\n<raw commit>\n", or "<ref> missing\n" (no ref, or its object is gone).
  const text = stdout.toString("utf8");
  const headerEnd = text.indexOf("\n");
  const [commit, type] = text.slice(0, headerEnd).split(" ");
  if (type !== "commit" || !commit) throw new CheckpointMissingError(ref);
  const raw = text.slice(headerEnd + 1);
  const bodyStart = raw.indexOf("\n\n");
  const tree = /^tree ([0-9a-f]{40,64})$/m.exec(raw.slice(0, bodyStart))?.[1];
  if (!tree) throw new CheckpointMissingError(ref);
  const message = raw.slice(bodyStart + 2);
  const match = new RegExp(`^${BASE_TRAILER}: ([0-9a-f]{40,64}|none)$`, "m").exec(message);
  const base = match?.[1] && match[1] !== "none" ? match[1] : null;
  return { ref, commit, tree, base };
}

export async function checkpointExists(ctx: GitContext, ref: string): Promise<boolean> {
  try {
    await resolveCheckpoint(ctx, ref);
    return true;
  } catch (error) {
    if (error instanceof CheckpointMissingError) return false;
    throw error;
  }
}

/**
 * Issue 33: deletes every hidden ref of one thread (its checkpoints, baseline and safety
 * checkpoints), in one `update-ref` transaction; how many went. A second call finds none. The
 * objects stay until git's own gc: other threads' checkpoints and forks may share them.
 */
export async function deleteThreadRefs(ctx: GitContext, threadId: string): Promise<number> {
  const prefix = checkpointRef(threadId, "x").slice(0, -1);
  const { stdout } = await runGit(["for-each-ref", "--format=%(refname)", prefix], {
    cwd: ctx.workspaceRoot,
    env: ctx.env,
  });
  const refs = stdout
    .toString("utf8")
    .split("\n")
    .filter((ref) => ref.startsWith(prefix));
  if (refs.length === 0) return 0;
  const script = `${refs.map((ref) => `delete ${ref}`).join("\n")}\n`;
  await runGit(["update-ref", "--stdin"], { cwd: ctx.workspaceRoot, env: ctx.env, input: script });
  return refs.length;
}
