import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ThreadId } from "@skein/domain";
import { type FakeGitHub, startFakeGitHub } from "@skein/fake-github";
import { afterEach } from "vitest";
import type { GitHubSettings } from "../../src/orchestrator/git/git-finish-commands.ts";
import { createGitWorkspace, git } from "./git-workspace.ts";
import { createHarness, type Harness, runMessage } from "./orchestrator-harness.ts";

export const GITHUB_TOKEN = "ghp_fake_token_for_tests";

export type GitHubThread = {
  h: Harness;
  fake: FakeGitHub;
  threadId: ThreadId;
  /** The project's workspace. */
  ws: string;
  /** The bare repository git pushes to in place of github.com. */
  bare: string;
  eventsOf(type: string): Promise<unknown[]>;
  commitPushOpen(): Promise<{
    commit: Awaited<ReturnType<Harness["orchestrator"]["gitCommit"]>>;
    pr: Awaited<ReturnType<Harness["orchestrator"]["openPullRequest"]>>;
  }>;
};

export type GitHubRepo = {
  fake: FakeGitHub;
  /** The project's workspace, on branch `feature`. */
  ws: string;
  /** The bare repository git pushes to in place of github.com. */
  bare: string;
  close(): Promise<void>;
};

/**
 * A workspace on branch `feature` whose `origin` says https://github.com/acme/widgets.git while
 * git reaches a local bare repository instead (`insteadOf`), and a fake GitHub serving
 * acme/widgets from that bare repository: nothing leaves the machine.
 */
export async function createGitHubRepo(): Promise<GitHubRepo> {
  const fake = await startFakeGitHub({ token: GITHUB_TOKEN });
  const bare = path.join(mkdtempSync(path.join(tmpdir(), "skein-remote-")), "widgets.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
  fake.addRepo("acme/widgets", { gitDir: bare, allowMergeCommit: false });
  const ws = createGitWorkspace({ "README.md": "hello\n" });
  git(ws, "config", "user.name", "Pat Person");
  git(ws, "config", "user.email", "pat@example.invalid");
  git(ws, "remote", "add", "origin", "https://github.com/acme/widgets.git");
  git(ws, "config", `url.${bare}.insteadOf`, "https://github.com/acme/widgets.git");
  git(ws, "push", "-q", "origin", "main");
  git(ws, "checkout", "-q", "-b", "feature");
  return {
    fake,
    ws,
    bare,
    async close() {
      await fake.close();
      rmSync(path.dirname(bare), { recursive: true, force: true });
    },
  };
}

/** How Skein reaches the fake GitHub of `remote` (polling left to the test). */
export function gitHubSettings(remote: GitHubRepo, token = GITHUB_TOKEN): GitHubSettings {
  return {
    env: { GITHUB_TOKEN: token, SKEIN_GITHUB_API_URL: remote.fake.url },
    ghToken: async () => null,
    publicUrl: "http://127.0.0.1:4318",
    pollIntervalMs: 60 * 60_000,
  };
}

/**
 * For a test file: `setup()` makes a project over `createGitHubRepo`'s workspace and a thread whose
 * first (scripted Codex) run added hello.ts. All of it is closed after each test.
 */
export function useGitHubThread(): (options?: { token?: string }) => Promise<GitHubThread> {
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });
  return async (options = {}) => {
    const remote = await createGitHubRepo();
    open.push(() => remote.close());
    const { fake, ws, bare } = remote;
    const h = await createHarness({
      workspaceRoot: ws,
      github: gitHubSettings(remote, options.token),
    });
    open.push(() => h.close());
    const { threadId } = await h.orchestrator.createThread({
      projectId: h.projectId,
      title: "Greet",
      // The person's own checkout and branch are what gets committed and pushed here.
      workspace: "local",
    });
    h.codex.enqueue([
      { type: "file_change", path: "hello.ts", diff: "", content: "export const hi = 1;\n" },
      { type: "text", text: "Added hello.ts with the greeting constant." },
    ]);
    await runMessage(h, threadId, "add a greeting constant");
    return {
      h,
      fake,
      threadId,
      ws,
      bare,
      eventsOf: async (type) => (await h.store.readAll(0)).filter((event) => event.type === type),
      async commitPushOpen() {
        const commit = await h.orchestrator.gitCommit({ threadId, commandId: "cmd_commit1" });
        await h.orchestrator.gitPush({ threadId, commandId: "cmd_push1" });
        const pr = await h.orchestrator.openPullRequest({ threadId, commandId: "cmd_open1" });
        return { commit, pr };
      },
    };
  };
}
