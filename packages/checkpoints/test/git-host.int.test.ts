// Issue 35: git commands are started by a helper process, not by the server (a fork of a large
// server blocked its event loop for each one). The answers are what git said; a helper that dies
// fails what it was running, in words, and the next command gets a new helper.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { GitHost } from "../src/git-host/git-host.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-git-host-"));
  dirs.push(dir);
  return dir;
}

const request = (cwd: string, args: string[], input = "", env: Record<string, string> = {}) => ({
  args,
  cwd,
  env,
  input,
});

describe("GitHost (git started outside the server's process)", () => {
  it("answers each command with git's exit code, output and errors, input passed through", async () => {
    const host = new GitHost();
    const cwd = scratch();
    const hashed = await host.run(request(cwd, ["hash-object", "--stdin"], "hello\n"));
    expect(hashed.code).toBe(0);
    expect(hashed.stdout.toString("utf8").trim()).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    // git's parent is the helper, not this process (an alias runs in a shell whose parent is git).
    const alias = "alias.parent=!awk '{print $4}' /proc/$PPID/stat";
    const parent = await host.run(request(cwd, ["-c", alias, "parent"]));
    const helper = (host as unknown as { child: { pid: number } }).child;
    expect(Number(parent.stdout.toString("utf8").trim())).toBe(helper.pid);
    expect(helper.pid).not.toBe(process.pid);
    const failed = await host.run(request(cwd, ["rev-parse", "HEAD"]));
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/not a git repository/);
  });

  it("a command in a folder that does not exist fails with the system's code, and the helper goes on", async () => {
    const host = new GitHost();
    const missing = path.join(scratch(), "gone");
    await expect(host.run(request(missing, ["--version"]))).rejects.toMatchObject({
      code: "ENOENT",
    });
    expect((await host.run(request(scratch(), ["--version"]))).code).toBe(0);
  });

  it("a helper that dies fails the commands it was running, in words; the next command starts a new one", async () => {
    const host = new GitHost();
    const cwd = scratch();
    await host.run(request(cwd, ["--version"]));
    // A command still running when its helper dies.
    const running = host.run(request(cwd, ["-c", "alias.wait=!sleep 5", "wait"]));
    const helper = (host as unknown as { child: { pid: number; kill(): void } }).child;
    helper.kill();
    await expect(running).rejects.toThrow(/git helper process exited/);
    const again = await host.run(request(cwd, ["--version"]));
    expect(again.code).toBe(0);
    const next = (host as unknown as { child: { pid: number } }).child;
    expect(next.pid).not.toBe(helper.pid);
  });

  it("git runs in the environment the helper started with, a command's own variables over it", async () => {
    const base = {
      ...process.env,
      LC_ALL: "C",
      SKEIN_BASE_ONLY: "from the start",
      SKEIN_BOTH: "base",
    };
    const host = new GitHost(() => base);
    const cwd = scratch();
    const show = [
      "-c",
      'alias.envshow=!printf \'%s|%s|%s\' "$SKEIN_BASE_ONLY" "$SKEIN_BOTH" "$SKEIN_OWN"',
      "envshow",
    ];
    const own = await host.run(
      request(cwd, show, "", { SKEIN_BOTH: "command", SKEIN_OWN: "mine" }),
    );
    expect(own.stdout.toString("utf8")).toBe("from the start|command|mine");
    // The next command does not keep the one before's variables.
    const plain = await host.run(request(cwd, show));
    expect(plain.stdout.toString("utf8")).toBe("from the start|base|");
  });
});
