import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });

/** A temp git repository with a few committed files. */
export function createGitWorkspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-ws-"));
  git(dir, "init", "-q", "-b", "main");
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  return dir;
}

/** Hash of every file below `dir` (skipping .git), to compare workspaces byte for byte. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel))) {
      if (rel === "" && name === ".git") continue;
      const relPath = rel ? `${rel}/${name}` : name;
      const full = path.join(dir, relPath);
      if (statSync(full).isDirectory()) walk(relPath);
      else out[relPath] = createHash("sha256").update(readFileSync(full)).digest("hex");
    }
  };
  walk("");
  return out;
}
