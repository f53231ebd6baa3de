import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workspaceFolderProblem } from "./folder-check.ts";

// Permissions on the real filesystem. Root may read and write anything, so as root the check runs
// in a child process as `nobody` (uid 65534), which is what a person's own user sees.

const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
const here = path.dirname(fileURLToPath(import.meta.url));
const tsx = path.resolve(here, "../../node_modules/.bin/tsx");

let base: string;

/** Each root's problem as `nobody` sees it, in one child process (tsx starts slowly). */
function problemsAsPerson(roots: string[]): (string | null)[] {
  const module = JSON.stringify(path.join(here, "folder-check.ts"));
  const script =
    `import(${module}).then((m) => Promise.all(${JSON.stringify(roots)}` +
    ".map((root) => m.workspaceFolderProblem(root, []))))" +
    ".then((problems) => console.log(JSON.stringify(problems)));";
  const out = execFileSync(tsx, ["--eval", script], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: os.tmpdir(),
    env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir() },
    encoding: "utf8",
  });
  return JSON.parse(out.trim()) as (string | null)[];
}

const CASES = ["open", "read-only", "closed", "closed-parent/inside"];
const problems = new Map<string, string | null>();

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "skein-folder-check-"));
  fs.chmodSync(base, 0o755);
  for (const [name, mode] of [
    ["open", 0o777],
    ["read-only", 0o555],
    ["closed", 0o000],
  ] as const) {
    fs.mkdirSync(path.join(base, name));
    fs.chmodSync(path.join(base, name), mode);
  }
  fs.mkdirSync(path.join(base, "closed-parent", "inside"), { recursive: true });
  fs.chmodSync(path.join(base, "closed-parent"), 0o000);
  return (async () => {
    const roots = CASES.map((relative) => path.join(base, relative));
    const found = asRoot
      ? problemsAsPerson(roots)
      : await Promise.all(roots.map((root) => workspaceFolderProblem(root, [])));
    for (const [i, root] of roots.entries()) problems.set(root, found[i] ?? null);
  })();
}, 30_000);
afterAll(() => {
  for (const name of ["read-only", "closed", "closed-parent"]) {
    fs.chmodSync(path.join(base, name), 0o755);
  }
  fs.rmSync(base, { recursive: true, force: true });
});

describe("B4: the workspace folder must be readable and writable by Skein", () => {
  it("accepts a folder it may read, write and enter", () => {
    expect(problems.get(path.join(base, "open"))).toBeNull();
  });

  it.each([
    ["a read-only folder", "read-only", "cannot read and write the folder"],
    ["a folder without any access", "closed", "cannot read and write the folder"],
    ["a folder below one it may not enter", "closed-parent/inside", "may not look into"],
  ])("refuses %s, saying so", (_name, relative, reason) => {
    const root = path.join(base, relative);
    const problem = problems.get(root);
    expect(problem).toContain(root);
    expect(problem).toContain(reason);
  });
});
