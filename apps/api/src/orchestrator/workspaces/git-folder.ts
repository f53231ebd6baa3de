import { existsSync } from "node:fs";
import path from "node:path";

/** Cheap pre-check (no git spawned, no shadow store created): a `.git` here or above. */
export function insideGitRepository(root: string): boolean {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}
