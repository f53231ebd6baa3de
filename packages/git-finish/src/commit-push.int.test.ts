import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commitChanges, GitFinishError, pushBranch } from "./index.ts";
import { makeTestRepos, type TestRepos } from "./test-repos.ts";

let repos: TestRepos | undefined;
let server: Server | undefined;
afterEach(() => {
  repos?.cleanup();
  repos = undefined;
  server?.close();
  server = undefined;
});

async function failure(promise: Promise<unknown>): Promise<GitFinishError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GitFinishError);
  return error as GitFinishError;
}

describe("commit and push with real git (B17)", () => {
  it("B17: commits every change with the person's identity and pushes the branch to the bare remote", async () => {
    repos = makeTestRepos();
    repos.git("checkout", "-q", "-b", "skein/t1");
    writeFileSync(path.join(repos.work, "README.md"), "hello world\n");
    mkdirSync(path.join(repos.work, "src"));
    writeFileSync(path.join(repos.work, "src", "new.ts"), "export const x = 1;\n");
    const commit = await commitChanges({ cwd: repos.work, message: "Say hello to the world" });
    expect(commit).toMatchObject({ branch: "skein/t1", created: true });
    expect(commit.files.sort()).toEqual(["README.md", "src/new.ts"]);
    expect(repos.git("log", "-1", "--format=%an <%ae>|%cn|%s")).toBe(
      "Pat Person <pat@example.invalid>|Pat Person|Say hello to the world",
    );
    expect(repos.git("status", "--porcelain")).toBe("");

    const pushed = await pushBranch({ cwd: repos.work });
    expect(pushed).toMatchObject({ remote: "origin", branch: "skein/t1", sha: commit.sha });
    const remoteHead = execFileSync("git", ["rev-parse", "refs/heads/skein/t1"], {
      cwd: repos.bare,
      encoding: "utf8",
    }).trim();
    expect(remoteHead).toBe(commit.sha);
    // Pushing what the remote has again is harmless (a retry).
    await expect(pushBranch({ cwd: repos.work })).resolves.toMatchObject({ sha: commit.sha });
  });

  it("B17: commits only the given paths and keeps the rest as it was", async () => {
    repos = makeTestRepos();
    writeFileSync(path.join(repos.work, "a.txt"), "a\n");
    writeFileSync(path.join(repos.work, "b.txt"), "b\n");
    const commit = await commitChanges({ cwd: repos.work, message: "only a", paths: ["a.txt"] });
    expect(commit.files).toEqual(["a.txt"]);
    expect(repos.git("status", "--porcelain")).toBe("?? b.txt");
  });

  it("B17: a retried commit under its recorded parent finds its own commit instead of making a second", async () => {
    repos = makeTestRepos();
    const parent = repos.git("rev-parse", "HEAD");
    writeFileSync(path.join(repos.work, "a.txt"), "a\n");
    const first = await commitChanges({ cwd: repos.work, message: "m", expectedParent: parent });
    const again = await commitChanges({ cwd: repos.work, message: "m", expectedParent: parent });
    expect(again).toMatchObject({ sha: first.sha, created: false });
    expect(repos.git("rev-list", "--count", "HEAD")).toBe("2");
    const moved = await failure(
      commitChanges({ cwd: repos.work, message: "other", expectedParent: parent }),
    );
    expect(moved.kind).toBe("branch_moved");
  });

  it("B17: nothing to commit, no remote and a rejected push end in words with nothing changed", async () => {
    repos = makeTestRepos();
    const nothing = await failure(commitChanges({ cwd: repos.work, message: "m" }));
    expect(nothing.kind).toBe("nothing_to_commit");
    expect(nothing.message).toMatch(/nothing to commit/);

    // Someone else pushed to main meanwhile: the push is refused, not forced.
    const other = makeTestRepos({ withRemote: false });
    try {
      other.git("remote", "add", "origin", repos.bare);
      other.git("fetch", "-q", "origin");
      other.git("reset", "-q", "--hard", "origin/main");
      writeFileSync(path.join(other.work, "theirs.txt"), "theirs\n");
      other.git("add", "theirs.txt");
      other.git("commit", "-q", "-m", "theirs");
      other.git("push", "-q", "origin", "main");
    } finally {
      other.cleanup();
    }
    const theirs = execFileSync("git", ["rev-parse", "main"], {
      cwd: repos.bare,
      encoding: "utf8",
    });
    writeFileSync(path.join(repos.work, "mine.txt"), "mine\n");
    await commitChanges({ cwd: repos.work, message: "mine" });
    const rejected = await failure(pushBranch({ cwd: repos.work }));
    expect(rejected.kind).toBe("rejected");
    expect(rejected.message).toMatch(/not a fast-forward/);
    expect(execFileSync("git", ["rev-parse", "main"], { cwd: repos.bare, encoding: "utf8" })).toBe(
      theirs,
    );

    const lonely = makeTestRepos({ withRemote: false });
    try {
      const noRemote = await failure(pushBranch({ cwd: lonely.work }));
      expect(noRemote.kind).toBe("no_remote");
      expect(noRemote.message).toMatch(/no remote/);
      const named = await failure(pushBranch({ cwd: repos.work, remote: "upstream" }));
      expect(named.message).toMatch(/no remote named upstream \(remotes: origin\)/);
    } finally {
      lonely.cleanup();
    }
  });

  it("B17: a remote that refuses the credentials is an auth failure in words", async () => {
    repos = makeTestRepos();
    let asked = 0;
    server = createServer((_req, res) => {
      asked += 1;
      res.writeHead(401, { "www-authenticate": 'Basic realm="fake"' });
      res.end("no");
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    repos.git("remote", "add", "secure", `http://127.0.0.1:${port}/acme/widgets.git`);
    const error = await failure(pushBranch({ cwd: repos.work, remote: "secure" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toMatch(/refused your credentials/);
    expect(asked).toBeGreaterThan(0);
  });
});
