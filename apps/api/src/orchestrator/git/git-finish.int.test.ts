import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { serveGitHubWebhook } from "../../http/github-webhook.ts";
import { silentLogger } from "../logger.ts";
import { createGitWorkspace, git } from "../../../test/support/git-workspace.ts";
import { useGitHubThread } from "../../../test/support/github-thread.ts";
import { eventually, runMessage } from "../../../test/support/orchestrator-harness.ts";

const setup = useGitHubThread();

describe("B17: from a thread to a merged pull request", () => {
  it("B17: commit + push + open PR with real git and the fake GitHub; replayed command ids change nothing", async () => {
    const { h, fake, threadId, ws, bare, eventsOf, commitPushOpen } = await setup();
    const { commit, pr } = await commitPushOpen();
    expect(commit).toMatchObject({ branch: "feature", files: ["hello.ts"] });
    expect(commit.message).toMatch(/^Greet\n\n- add a greeting constant/);
    expect(git(ws, "log", "-1", "--format=%an").trim()).toBe("Pat Person");
    expect(
      execFileSync("git", ["rev-parse", "feature"], { cwd: bare, encoding: "utf8" }).trim(),
    ).toBe(commit.sha);
    expect(pr).toMatchObject({
      number: 1,
      repository: "acme/widgets",
      head: "feature",
      base: "main",
      created: true,
    });

    // Replays answer their receipts: no second commit, PR or event.
    expect(await h.orchestrator.gitCommit({ threadId, commandId: "cmd_commit1" })).toEqual(commit);
    expect(await h.orchestrator.openPullRequest({ threadId, commandId: "cmd_open1" })).toEqual(pr);
    // A new command for the same branch finds the open PR instead of opening another.
    const again = await h.orchestrator.openPullRequest({ threadId, commandId: "cmd_open2" });
    expect(again).toMatchObject({ number: 1, created: false });
    expect(fake.pulls("acme/widgets")).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(await eventsOf("GitCommitted")).toHaveLength(1);
    expect(await eventsOf("PullRequestOpened")).toHaveLength(1);
    expect(git(ws, "rev-list", "--count", "HEAD").trim()).toBe("2");

    const body = fake.requests.find((r) => r.method === "POST")?.body as { body: string };
    expect(body.body).toContain("add a greeting constant");
    expect(body.body).toContain(`http://127.0.0.1:4318/threads/${threadId}`);
    const state = await h.thread(threadId);
    expect(state.thread?.pullRequest).toMatchObject({
      number: 1,
      state: "open",
      headSha: commit.sha,
    });
    const actions = [...state.turnItems.values()]
      .map((e) => e.item)
      .filter((i) => i.type === "git")
      .map((i) => (i.type === "git" ? i.action : null));
    expect(actions).toEqual(["committed", "pushed", "pr_opened"]);
  });

  it("B17: review comments and a failing check are recorded once each and become messages; merge waits for green", async () => {
    const { h, fake, threadId, commitPushOpen } = await setup();
    const { commit } = await commitPushOpen();
    const check = fake.addCheckRun("acme/widgets", {
      headSha: commit.sha,
      name: "unit tests",
      status: "completed",
      conclusion: "failure",
      output: { title: "1 failed", summary: null, text: "hello.test.ts: expected 2, got 1" },
    });
    const comment = fake.addReviewComment("acme/widgets", {
      pullNumber: 1,
      path: "hello.ts",
      line: 1,
      diffHunk: "@@ -0,0 +1 @@\n+export const hi = 1;",
      body: "call it greeting",
      user: "reviewer",
    });
    const first = await h.orchestrator.syncPullRequest({ threadId });
    expect(first.recorded).toBe(3); // state, check, comment
    const second = await h.orchestrator.syncPullRequest({ threadId });
    expect(second.recorded).toBe(0);
    expect(fake.requests.filter((r) => r.status === 304).length).toBeGreaterThanOrEqual(5);

    await expect(h.orchestrator.mergePullRequest({ threadId })).rejects.toThrow(
      /checks that have not passed \(failing: unit tests\)/,
    );

    h.codex.enqueue(
      [{ type: "text", text: "Renamed." }],
      [{ type: "text", text: "Fixed the test." }],
    );
    const feedback = await h.orchestrator.sendPullRequestFeedback({
      threadId,
      commandId: "cmd_fb1",
    });
    expect(feedback.runIds).toHaveLength(2);
    expect(
      await h.orchestrator.sendPullRequestFeedback({ threadId, commandId: "cmd_fb1" }),
    ).toEqual(feedback);
    for (const runId of feedback.runIds) await h.orchestrator.waitForRun(runId);
    const state = await h.thread(threadId);
    const asked = [...state.messages.values()].filter((m) => m.role === "user").map((m) => m.text);
    expect(asked).toHaveLength(3);
    expect(asked[1]).toContain("hello.ts:1 — reviewer wrote:");
    expect(asked[1]).toContain("> call it greeting");
    expect(asked[1]).toContain("+export const hi = 1;");
    expect(asked[2]).toMatch(/^Fix the failing check "unit tests" on pull request #1/);
    expect(asked[2]).toContain("expected 2, got 1");
    // Everything waiting was sent: nothing is left to send.
    await expect(h.orchestrator.sendPullRequestFeedback({ threadId })).rejects.toThrow(
      /no review comment or failing check is waiting/,
    );
    expect(comment.id).toBeGreaterThan(0);

    fake.updateCheckRun(check.id, { conclusion: "success" });
    const merged = await h.orchestrator.mergePullRequest({ threadId, commandId: "cmd_merge1" });
    expect(merged).toMatchObject({ method: "squash", sha: commit.sha });
    expect(fake.pulls("acme/widgets")[0]).toMatchObject({ merged: true });
    expect((await h.thread(threadId)).thread?.pullRequest).toMatchObject({ state: "merged" });
  });

  it("B17: what a poll saw is recorded once across a restart", async () => {
    const { h, fake, threadId, eventsOf, commitPushOpen } = await setup();
    const { commit } = await commitPushOpen();
    fake.addCheckRun("acme/widgets", {
      headSha: commit.sha,
      name: "lint",
      status: "completed",
      conclusion: "success",
    });
    expect((await h.orchestrator.syncPullRequest({ threadId })).recorded).toBe(2);
    await h.orchestrator.shutdown();
    const restarted = await h.restart();
    await restarted.recover();
    expect((await restarted.syncPullRequest({ threadId })).recorded).toBe(0);
    expect(await eventsOf("PullRequestFactRecorded")).toHaveLength(2);
  });

  it("B17: a refused token and a rejected push end in words with nothing recorded as done", async () => {
    const { h, fake, threadId, ws, bare, eventsOf } = await setup({ token: "ghp_wrong_token" });
    await h.orchestrator.gitCommit({ threadId });
    await h.orchestrator.gitPush({ threadId });
    await expect(
      h.orchestrator.openPullRequest({ threadId, commandId: "cmd_open_bad" }),
    ).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringMatching(/GitHub refused the token/),
    });
    expect(await eventsOf("PullRequestOpened")).toHaveLength(0);
    expect(await h.store.findIntent("cmd_open_bad")).toBeNull();
    expect(fake.pulls("acme/widgets")).toHaveLength(0);

    // Someone else moved `feature` on the remote: the push is refused, not forced.
    const other = createGitWorkspace({ "x.txt": "x\n" });
    try {
      git(other, "remote", "add", "origin", bare);
      git(other, "fetch", "-q", "origin");
      git(other, "checkout", "-q", "-B", "feature", "origin/feature");
      git(other, "commit", "-q", "--allow-empty", "-m", "theirs");
      git(other, "push", "-q", "origin", "feature");
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    const theirs = execFileSync("git", ["rev-parse", "feature"], { cwd: bare, encoding: "utf8" });
    h.codex.enqueue([{ type: "file_change", path: "more.ts", diff: "", content: "1\n" }]);
    await runMessage(h, threadId, "more");
    await h.orchestrator.gitCommit({ threadId });
    const pushes = (await eventsOf("GitPushed")).length;
    await expect(h.orchestrator.gitPush({ threadId })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/refused the push to feature.*not a fast-forward/),
    });
    expect(await eventsOf("GitPushed")).toHaveLength(pushes);
    expect(execFileSync("git", ["rev-parse", "feature"], { cwd: bare, encoding: "utf8" })).toBe(
      theirs,
    );
    expect(git(ws, "status", "--porcelain").trim()).toBe("");
  });

  it("B17: a webhook with a bad signature is refused and changes nothing; a signed one makes the watch poll", async () => {
    const { h, fake, eventsOf, commitPushOpen } = await setup();
    const { commit } = await commitPushOpen();
    const secret = "webhook-secret-0123456789";
    const server = createServer((req, res) => {
      void serveGitHubWebhook(req, res, {
        secret,
        log: silentLogger,
        nudge: (repository, numbers) =>
          h.orchestrator.pullRequests.syncRepository(repository, numbers),
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/github`;
    try {
      fake.addCheckRun("acme/widgets", {
        headSha: commit.sha,
        name: "ci",
        status: "completed",
        conclusion: "failure",
      });
      const payload = {
        action: "completed",
        repository: { full_name: "acme/widgets" },
        check_run: { pull_requests: [{ number: 1 }] },
      };
      const polls = () =>
        fake.requests.filter((r) => r.path === "/repos/acme/widgets/pulls/1").length;
      const before = polls();
      const bad = await fake.deliver({
        url,
        secret: "not-the-secret-at-all",
        event: "check_run",
        payload,
      });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({
        message: expect.stringMatching(/signature does not match/),
      });
      expect(polls()).toBe(before);
      expect(await eventsOf("PullRequestFactRecorded")).toHaveLength(0);

      const good = await fake.deliver({ url, secret, event: "check_run", payload });
      expect(good.status).toBe(202);
      await eventually(async () =>
        expect(await eventsOf("PullRequestFactRecorded")).toHaveLength(2),
      );
      expect(polls()).toBe(before + 1);
    } finally {
      server.close();
    }
  });
});

describe("B17: the repository a pull request goes to", () => {
  it("B17: a push remote whose URL names no GitHub repository is refused in words; the project's githubRepository setting names it", async () => {
    const { h, fake, threadId, ws, bare } = await setup();
    git(ws, "remote", "set-url", "origin", bare);
    await h.orchestrator.gitCommit({ threadId });
    await h.orchestrator.gitPush({ threadId });
    await expect(h.orchestrator.openPullRequest({ threadId })).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringMatching(
        /is not a GitHub repository URL: give repository "owner\/name"/,
      ),
    });
    expect(fake.pulls("acme/widgets")).toHaveLength(0);

    await h.orchestrator.updateProjectSettings({
      projectId: h.projectId,
      settings: { githubRepository: "acme/widgets" },
    });
    const pr = await h.orchestrator.openPullRequest({ threadId });
    expect(pr).toMatchObject({ number: 1, repository: "acme/widgets", created: true });
    expect(fake.pulls("acme/widgets")).toHaveLength(1);
  });
});
