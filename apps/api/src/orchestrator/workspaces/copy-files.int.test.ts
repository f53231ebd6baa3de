import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyIntoWorktree } from "./copy-files.ts";

const made: string[] = [];
const temp = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-copy-"));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("issue 26: files copied into a new worktree", () => {
  it("copies what the patterns name (a `*`/`?` in the last segment, in subfolders too), files only", async () => {
    const from = temp();
    const to = temp();
    mkdirSync(path.join(from, "config"));
    mkdirSync(path.join(from, ".env.d"));
    writeFileSync(path.join(from, ".env"), "A=1\n");
    writeFileSync(path.join(from, ".env.local"), "B=2\n");
    writeFileSync(path.join(from, "envy.txt"), "not an env file\n");
    writeFileSync(path.join(from, "config", "db.local.json"), "{}\n");
    writeFileSync(path.join(from, "config", "db.json"), "{}\n");
    writeFileSync(path.join(from, "key1.pem"), "k\n");
    symlinkSync(path.join(from, ".env"), path.join(from, ".env.link"));

    const copied = await copyIntoWorktree(from, to, [
      ".env*",
      "config/*.local.json",
      "key?.pem",
      "missing/*.txt",
    ]);
    expect(copied).toEqual([".env", ".env.local", "config/db.local.json", "key1.pem"]);
    expect(readFileSync(path.join(to, "config", "db.local.json"), "utf8")).toBe("{}\n");
  });

  it("never overwrites a file already in the worktree, and copying again changes nothing", async () => {
    const from = temp();
    const to = temp();
    writeFileSync(path.join(from, ".env"), "FROM_PROJECT=1\n");
    writeFileSync(path.join(from, ".env.test"), "T=1\n");
    writeFileSync(path.join(to, ".env"), "ALREADY_HERE=1\n");
    expect(await copyIntoWorktree(from, to, [".env*"])).toEqual([".env.test"]);
    expect(readFileSync(path.join(to, ".env"), "utf8")).toBe("ALREADY_HERE=1\n");
    expect(await copyIntoWorktree(from, to, [".env*"])).toEqual([]);
  });
});
