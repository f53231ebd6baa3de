import { randomBytes } from "node:crypto";
import { copyFile, readdir, rename, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { GitCommandError } from "./errors.ts";
import type { GitContext } from "./git-context.ts";
import { runGit } from "./git-runner.ts";
import { removeFile } from "./remove-file.ts";

/**
 * A private index file. Everything Skein stages goes here, never into the user's index; the
 * user's index, HEAD and branches stay exactly as they were.
 */
export type TempIndex = {
  readonly env: Record<string, string>;
  git(args: readonly string[], input?: string): Promise<Buffer>;
  /** Keep this index's stat data for later captures; it must hold exactly `tree` right now. */
  keepAsStatCache(tree: string): Promise<void>;
  /** Keeps this index under another name (a staged capture); dispose then removes nothing. */
  moveTo(target: string): Promise<void>;
  dispose(): Promise<void>;
};

const CACHE_PREFIX = "stat-cache.";
/** Several threads may alternate in one workspace; a few cached indexes keep each one warm. */
const CACHES_KEPT = 4;
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/**
 * Opens a temporary index holding `tree` (a tree-ish; null = empty), seeded with stat data so the
 * next `git add -A` only re-hashes files that really changed:
 * - a cached index already holding exactly `tree` (the previous capture's) is used as is;
 * - otherwise the newest cached index (or the user's own index) is merged with `read-tree -m`,
 *   which keeps stat data for every entry whose content matches `tree`;
 * - with no seed at all, a plain `read-tree` (every file gets hashed once);
 * - `tree` null: no file at all, which git reads as an empty index.
 */
export async function openTempIndex(ctx: GitContext, tree: string | null): Promise<TempIndex> {
  const file = path.join(ctx.scratchDir, `index-${process.pid}-${randomBytes(6).toString("hex")}`);
  const env = { ...ctx.env, GIT_INDEX_FILE: file };
  const git = async (args: readonly string[], input?: string) =>
    (await runGit(args, { cwd: ctx.workspaceRoot, env, ...(input === undefined ? {} : { input }) }))
      .stdout;
  const dispose = async () => {
    await removeFile(file);
    await removeFile(`${file}.lock`);
  };

  try {
    if (tree === null) {
      // An index file that does not exist is an empty index to git: a thread's first capture
      // (its baseline, which its first turn waits on) spares a git process (issue 34).
    } else if (OBJECT_ID.test(tree) && (await copyPreservingMtime(cachePath(ctx, tree), file))) {
      // Exact match: nothing to merge.
    } else if (await seedFromNewest(ctx, file)) {
      await git(["read-tree", "-m", tree]).catch(async (error: unknown) => {
        // A seed with unmerged entries (user mid-merge) cannot be merged; lose the stat data only.
        if (!(error instanceof GitCommandError)) throw error;
        await git(["read-tree", tree]);
      });
    } else await git(["read-tree", tree]);
  } catch (error) {
    await dispose();
    throw error;
  }

  return {
    env,
    git,
    keepAsStatCache: (heldTree) => keepIndexAsStatCache(ctx, file, heldTree),
    moveTo: (target) => rename(file, target),
    dispose,
  };
}

/** Keeps an index file's stat data for later captures; it must hold exactly `tree` right now. */
export async function keepIndexAsStatCache(
  ctx: GitContext,
  file: string,
  tree: string,
): Promise<void> {
  await rename(file, cachePath(ctx, tree)).catch(() => undefined);
  await pruneCaches(ctx).catch(() => undefined);
}

function cachePath(ctx: GitContext, tree: string): string {
  return path.join(ctx.scratchDir, `${CACHE_PREFIX}${tree}`);
}

async function cachesNewestFirst(ctx: GitContext): Promise<string[]> {
  const names = (await readdir(ctx.scratchDir)).filter((n) => n.startsWith(CACHE_PREFIX));
  const dated = await Promise.all(
    names.map(async (name) => {
      const full = path.join(ctx.scratchDir, name);
      const mtime = await stat(full).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      return { full, mtime };
    }),
  );
  return dated.sort((a, b) => b.mtime - a.mtime).map((d) => d.full);
}

async function seedFromNewest(ctx: GitContext, target: string): Promise<boolean> {
  const candidates = await cachesNewestFirst(ctx);
  if (ctx.mode === "repo") candidates.push(path.join(ctx.gitDir, "index"));
  for (const source of candidates) {
    if (await copyPreservingMtime(source, target)) return true;
  }
  return false;
}

/**
 * Git trusts cached stat data only for files older than the index file itself (its racy-git
 * check), so a copy must keep the original mtime or edits made just before it could go unseen.
 */
export async function copyPreservingMtime(source: string, target: string): Promise<boolean> {
  try {
    const info = await stat(source);
    await copyFile(source, target);
    await utimes(target, info.atime, info.mtime);
    return true;
  } catch {
    return false; // missing, or replaced mid-copy by a concurrent capture
  }
}

async function pruneCaches(ctx: GitContext): Promise<void> {
  const stale = (await cachesNewestFirst(ctx)).slice(CACHES_KEPT);
  await Promise.all(stale.map(removeFile));
}

const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** A staged capture's working copies (staged-capture.ts), never its reading itself. */
const STAGED_COPY = /^staged\..+\.(index|json)\.[0-9a-f]{8}$/;

/** A crash mid-capture leaves its temporary index behind; sweep those older than an hour. */
export async function sweepAbandonedTempIndexes(ctx: GitContext): Promise<void> {
  const cutoff = Date.now() - ABANDONED_AFTER_MS;
  const names = (await readdir(ctx.scratchDir)).filter(
    (n) => n.startsWith("index-") || STAGED_COPY.test(n),
  );
  await Promise.all(
    names.map(async (name) => {
      const full = path.join(ctx.scratchDir, name);
      const info = await stat(full).catch(() => null);
      if (info && info.mtimeMs < cutoff) await removeFile(full);
    }),
  );
}
