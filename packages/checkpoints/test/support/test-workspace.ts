// Test support for the *.int.test.ts files: real git repositories in temp folders.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { createCheckpointStore } from "../../src/index.ts";

const created: string[] = [];

export function tempDir(label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `skein-ckpt-${label}-`));
  created.push(dir);
  return dir;
}

function cleanupTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

// Every test file that makes temp dirs imports this module: it removes them after the file.
afterAll(cleanupTempDirs);

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("GIT_")) env[key] = value;
  }
  // Reading state must not refresh (rewrite) the user's index, or the index hash check is moot.
  return { ...env, GIT_OPTIONAL_LOCKS: "0", GIT_CONFIG_NOSYSTEM: "1" };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv(), encoding: "utf8" }).trimEnd();
}

/** Shell command, like an agent's `shell` tool would run. */
export function sh(cwd: string, script: string): void {
  execFileSync("sh", ["-c", script], { cwd });
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

export function makeExecutable(root: string, rel: string): void {
  chmodSync(path.join(root, rel), 0o755);
}

/** A repository with one commit holding `files`. */
export function initRepo(dir: string, files: Record<string, string | Buffer>): void {
  git(dir, "init", "--quiet", "--initial-branch=main");
  git(dir, "config", "user.name", "Test User");
  git(dir, "config", "user.email", "user@example.com");
  git(dir, "config", "commit.gpgsign", "false");
  writeFiles(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "--quiet", "-m", "initial");
}

/** sha256 + executable bit of every file under root, skipping `.git`. */
export function hashTree(root: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === ".git") continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const exec = (statSync(full).mode & 0o100) !== 0 ? "x" : "-";
        const digest = createHash("sha256").update(readFileSync(full)).digest("hex");
        result[path.relative(root, full).split(path.sep).join("/")] = `${exec}${digest}`;
      }
    }
  };
  walk(root);
  return result;
}

export function listDirs(root: string): string[] {
  const dirs: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === ".git") continue;
      const full = path.join(dir, entry.name);
      dirs.push(path.relative(root, full));
      walk(full);
    }
  };
  walk(root);
  return dirs.sort();
}

/** Everything the user could see of their repository: must be identical around Skein's work. */
export function userRepoState(repo: string) {
  const indexHash = createHash("sha256")
    .update(readFileSync(path.join(repo, ".git", "index")))
    .digest("hex");
  return {
    indexHash,
    head: git(repo, "rev-parse", "HEAD"),
    symbolicHead: git(repo, "symbolic-ref", "HEAD"),
    branches: git(repo, "for-each-ref", "refs/heads", "refs/tags"),
    status: git(repo, "status", "--porcelain=v1", "--untracked-files=all"),
  };
}

export function fileContent(root: string, rel: string): string {
  return readFileSync(path.join(root, rel), "utf8");
}

/**
 * A committed repository holding `files` and a checkpoint store over it (shadow data in a temp
 * dir), or over its `subfolder` when given: a workspace inside a larger repository.
 */
export async function repoWithStore(
  label: string,
  files: Record<string, string | Buffer>,
  subfolder?: string,
) {
  const repo = tempDir(label);
  initRepo(repo, files);
  const workspace = subfolder ? path.join(repo, subfolder) : repo;
  const store = await createCheckpointStore({
    workspaceRoot: workspace,
    shadowDir: tempDir("data"),
  });
  return { repo, workspace, store };
}
