import { type Dirent, promises as fs } from "node:fs";
import path from "node:path";

/** Folders never searched: git's store and installed packages (huge, and not the person's work). */
const SKIPPED = new Set([".git", "node_modules"]);
/** Entries read per search at most, so a vast workspace answers quickly with what it found. */
export const MAX_SCANNED_ENTRIES = 20_000;
export const DEFAULT_FILE_MATCHES = 20;

/**
 * Files under `root` whose relative path matches `query` (case aside), best first: a file name
 * that starts with it, then one that holds it, then a path that holds it, then shorter paths.
 * Breadth first, so near-root files are seen before deep ones when the walk is cut short. Only
 * what is under `root` can be reached: names come from the directory listing, and symlinks are
 * neither followed nor listed.
 */
export async function searchWorkspaceFiles(
  root: string,
  query: string,
  limit = DEFAULT_FILE_MATCHES,
  maxScanned = MAX_SCANNED_ENTRIES,
): Promise<{ paths: string[]; truncated: boolean }> {
  const needle = query.trim().toLowerCase().replaceAll("\\", "/");
  const found: Array<{ path: string; rank: number }> = [];
  const queue: string[] = [""];
  let scanned = 0;
  let truncated = false;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
    } catch {
      continue; // unreadable (permissions, removed meanwhile): nothing to offer from there
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (++scanned > maxScanned) {
        truncated = true;
        queue.length = 0;
        break;
      }
      const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) queue.push(relative);
      } else if (entry.isFile()) {
        const rank = rankOf(relative, entry.name, needle);
        if (rank !== null) found.push({ path: relative, rank });
      }
    }
  }
  found.sort(
    (a, b) => a.rank - b.rank || a.path.length - b.path.length || (a.path < b.path ? -1 : 1),
  );
  if (found.length > limit) truncated = true;
  return { paths: found.slice(0, limit).map((f) => f.path), truncated };
}

function rankOf(relative: string, name: string, needle: string): number | null {
  if (needle === "") return 3;
  const lowerName = name.toLowerCase();
  if (lowerName.startsWith(needle)) return 0;
  if (lowerName.includes(needle)) return 1;
  if (relative.toLowerCase().includes(needle)) return 2;
  return null;
}
