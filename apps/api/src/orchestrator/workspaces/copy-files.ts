import { constants } from "node:fs";
import { copyFile, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

/**
 * Issue 26: copies the project's untracked helpers (`.env*` by default) into a new worktree, so
 * the thread's checkout runs like the person's own folder. A pattern is a path relative to the
 * project's folder whose last segment may hold `*` and `?`. Only regular files are copied, and
 * never over anything already in the worktree (the copy is exclusive, so a file the checkout or
 * the person put there first wins). Returns the relative paths copied, sorted.
 */
export async function copyIntoWorktree(
  from: string,
  to: string,
  patterns: readonly string[],
): Promise<string[]> {
  const copied = new Set<string>();
  for (const pattern of patterns) {
    const dir = path.posix.dirname(pattern);
    const match = segmentMatcher(path.posix.basename(pattern));
    const entries = await readdir(path.join(from, dir), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile() || !match(entry.name)) continue;
      const relative = dir === "." ? entry.name : `${dir}/${entry.name}`;
      const target = path.join(to, relative);
      if (copied.has(relative) || (await exists(target))) continue;
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await copyFile(path.join(from, relative), target, constants.COPYFILE_EXCL);
        copied.add(relative);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
  }
  return [...copied].sort();
}

function segmentMatcher(glob: string): (name: string) => boolean {
  if (!/[*?]/.test(glob)) return (name) => name === glob;
  const source = glob
    .split("")
    .map((c) => (c === "*" ? "[^/]*" : c === "?" ? "[^/]" : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  const regex = new RegExp(`^${source}$`);
  return (name) => regex.test(name);
}

async function exists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}
