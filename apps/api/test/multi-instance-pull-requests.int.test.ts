import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startFakeGitHub } from "@skein/fake-github";
import { createScriptedProvider } from "@skein/scripted-provider";
import { afterEach, describe, expect, it } from "vitest";
import { createGitWorkspace, git } from "./support/git-workspace.ts";
import { type PgInstance, startPgInstance } from "./support/pg-instances.ts";
import { scratchSchema } from "./support/postgres.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("B17 on PostgreSQL with two instances", () => {
  it("B17: each pull-request event appears once however many instances poll at once", async () => {
    const database = await scratchSchema();
    cleanups.push(() => database.drop());
    const fake = await startFakeGitHub({ token: "ghp_two_instances" });
    cleanups.push(() => fake.close());
    const root = mkdtempSync(path.join(tmpdir(), "skein-remote-"));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const bare = path.join(root, "widgets.git");
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
    fake.addRepo("acme/widgets", { gitDir: bare });
    const ws = createGitWorkspace({ "README.md": "hello\n" });
    cleanups.push(() => rmSync(ws, { recursive: true, force: true }));
    git(ws, "remote", "add", "origin", "git@github.com:acme/widgets.git");
    git(ws, "config", `url.${bare}.insteadOf`, "git@github.com:acme/widgets.git");
    git(ws, "config", "user.name", "Pat Person");
    git(ws, "config", "user.email", "pat@example.invalid");
    git(ws, "checkout", "-q", "-b", "feature");

    const codex = createScriptedProvider({ provider: "codex" });
    const github = {
      env: { GITHUB_TOKEN: "ghp_two_instances", SKEIN_GITHUB_API_URL: fake.url },
      ghToken: async () => null,
      pollIntervalMs: 60 * 60_000,
    };
    const instances: PgInstance[] = [];
    for (const id of ["pr-a", "pr-b"]) {
      const instance = await startPgInstance({
        id,
        url: database.url,
        codex,
        leaseTtlMs: 5_000,
        github,
      });
      instances.push(instance);
      cleanups.push(() => instance.close());
    }
    const [a, b] = instances as [PgInstance, PgInstance];
    const { projectId } = await a.client.project.create.mutate({ name: "p", workspaceRoot: ws });
    const { threadId } = await a.client.thread.create.mutate({
      projectId,
      title: "Two",
      workspace: "local",
    });
    writeFileSync(path.join(ws, "two.ts"), "export const two = 2;\n");
    const commit = await a.client.git.commit.mutate({ threadId });
    await a.client.git.push.mutate({ threadId });
    await a.client.pr.open.mutate({ threadId });
    fake.addCheckRun("acme/widgets", {
      headSha: commit.sha,
      name: "ci",
      status: "completed",
      conclusion: "failure",
    });
    fake.addReviewComment("acme/widgets", {
      pullNumber: 1,
      path: "two.ts",
      line: 1,
      diffHunk: "@@ -0,0 +1 @@\n+export const two = 2;",
      body: "why two?",
      user: "rev",
    });

    const syncs = await Promise.all([
      a.client.pr.sync.mutate({ threadId }),
      b.client.pr.sync.mutate({ threadId }),
      a.client.pr.sync.mutate({ threadId }),
      b.client.pr.sync.mutate({ threadId }),
    ]);
    const facts = (await a.store.readAll(0)).filter((e) => e.type === "PullRequestFactRecorded");
    // A sync on an instance already polling joins that poll; across instances the log decides.
    expect(syncs.map((s) => s.recorded)).toEqual(expect.arrayContaining([3]));
    expect(new Set(syncs.map((s) => s.recorded))).toEqual(new Set([0, 3]));
    const keys = facts.map((e) => (e.data as { fact: { key: string } }).fact.key).sort();
    expect(keys).toEqual([
      expect.stringMatching(/^check:\d+:completed:failure$/),
      expect.stringMatching(/^comment:\d+$/),
      `state:open:${commit.sha}`,
    ]);
    // Each instance reads the same PR on its thread shell.
    const shells = await b.client.thread.shells.query({});
    expect(shells.threads.find((s) => s.id === threadId)).toMatchObject({
      pullRequest: { number: 1, commentCount: 1, checks: [{ name: "ci", conclusion: "failure" }] },
    });
  });
});
