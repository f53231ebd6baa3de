import { describe, expect, it } from "vitest";
import { useGitHubThread } from "../../../test/support/github-thread.ts";
import { eventually } from "../../../test/support/orchestrator-harness.ts";

const setup = useGitHubThread();

describe("B17: automatic feedback, a per-thread setting", () => {
  it("B17: with autoFeedback off a review comment is recorded and waits; turned on, the next comment and a failing check reach the agent once each without a click", async () => {
    const { h, fake, threadId, commitPushOpen } = await setup();
    const { commit } = await commitPushOpen();
    const userTexts = async () =>
      [...(await h.thread(threadId)).messages.values()]
        .filter((m) => m.role === "user")
        .map((m) => m.text);

    fake.addReviewComment("acme/widgets", {
      pullNumber: 1,
      path: "hello.ts",
      line: 1,
      diffHunk: "@@ -0,0 +1 @@\n+export const hi = 1;",
      body: "first remark, left for the person",
      user: "reviewer",
    });
    expect((await h.orchestrator.syncPullRequest({ threadId })).recorded).toBe(2);
    // Off by default: the comment is on the timeline, no message went to the agent.
    const runsBefore = (await h.thread(threadId)).runs.size;
    expect(await userTexts()).toHaveLength(1);

    await h.orchestrator.updateSettings({ threadId, autoFeedback: true });
    expect((await h.thread(threadId)).thread?.autoFeedback).toBe(true);

    h.codex.enqueue(
      [{ type: "text", text: "Renamed it." }],
      [{ type: "text", text: "Fixed the test." }],
    );
    fake.addReviewComment("acme/widgets", {
      pullNumber: 1,
      path: "hello.ts",
      line: 1,
      diffHunk: "@@ -0,0 +1 @@\n+export const hi = 1;",
      body: "call it greeting",
      user: "reviewer",
    });
    fake.addCheckRun("acme/widgets", {
      headSha: commit.sha,
      name: "unit tests",
      status: "completed",
      conclusion: "failure",
      output: { title: "1 failed", summary: null, text: "hello.test.ts: expected 2, got 1" },
    });
    expect((await h.orchestrator.syncPullRequest({ threadId })).recorded).toBe(2);
    const texts = await eventually(async () => {
      const asked = await userTexts();
      expect(asked).toHaveLength(3);
      return asked;
    });
    // Only what the poll newly saw: the earlier comment stays for the person to send.
    expect(texts[1]).toContain("> call it greeting");
    expect(texts[1]).not.toContain("first remark");
    expect(texts[2]).toMatch(/^Fix the failing check "unit tests" on pull request #1/);
    const state = await h.thread(threadId);
    expect(state.runs.size).toBe(runsBefore + 2);
    for (const run of state.runs.values()) await h.orchestrator.waitForRun(run.id);

    // A later poll that sees nothing new sends nothing again.
    expect((await h.orchestrator.syncPullRequest({ threadId })).recorded).toBe(0);
    expect(await userTexts()).toHaveLength(3);
    expect((await h.thread(threadId)).runs.size).toBe(runsBefore + 2);
  });

  it("B17: autoFeedback is refused in words on an empty settings change, and kept across a restart", async () => {
    const { h, threadId } = await setup();
    await expect(h.orchestrator.updateSettings({ threadId })).rejects.toThrow(/autoFeedback/);
    await h.orchestrator.updateSettings({ threadId, autoFeedback: true });
    await h.orchestrator.shutdown();
    const restarted = await h.restart();
    expect((await h.thread(threadId)).thread?.autoFeedback).toBe(true);
    await restarted.updateSettings({ threadId, autoFeedback: false });
    expect((await h.thread(threadId)).thread?.autoFeedback).toBe(false);
  });
});
