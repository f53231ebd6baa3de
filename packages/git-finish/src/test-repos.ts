import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Test support: a working repository with one commit on `main` and a local bare `origin`. */
export type TestRepos = {
  work: string;
  bare: string;
  root: string;
  git(...args: string[]): string;
  cleanup(): void;
};

export function makeTestRepos(options: { withRemote?: boolean } = {}): TestRepos {
  const root = mkdtempSync(path.join(tmpdir(), "skein-git-finish-"));
  const work = path.join(root, "work");
  const bare = path.join(root, "origin.git");
  const run = (cwd: string, args: string[]) =>
    execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      env: { ...cleanEnv(), GIT_CONFIG_NOSYSTEM: "1" },
    }).trim();
  run(root, ["init", "-q", "-b", "main", work]);
  run(work, ["config", "user.name", "Pat Person"]);
  run(work, ["config", "user.email", "pat@example.invalid"]);
  writeFileSync(path.join(work, "README.md"), "hello\n");
  run(work, ["add", "README.md"]);
  run(work, ["commit", "-q", "-m", "first"]);
  if (options.withRemote !== false) {
    run(root, ["init", "-q", "--bare", "-b", "main", bare]);
    run(work, ["remote", "add", "origin", bare]);
    run(work, ["push", "-q", "origin", "main"]);
  }
  return {
    work,
    bare,
    root,
    git: (...args) => run(work, args),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return env;
}
