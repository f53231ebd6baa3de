import { describe, expect, it } from "vitest";
import { given } from "../testing/decider-spec.ts";
import { ThreadScenario } from "../testing/scenario.ts";

const pr = {
  repository: "acme/widgets",
  number: 7,
  url: "http://127.0.0.1:1/acme/widgets/pull/7",
  head: "skein/t1",
  base: "main",
  headSha: "a".repeat(40),
  title: "Do it",
  draft: false,
  state: "open" as const,
};

function withPullRequest() {
  const s = new ThreadScenario().create();
  s.exec({ type: "RecordPullRequest", data: { threadId: s.threadId, pullRequest: pr } });
  return s;
}

const comment = {
  kind: "comment" as const,
  key: "comment:11",
  id: 11,
  path: "src/a.ts",
  line: 3,
  diffHunk: "@@ -1 +1 @@\n+x",
  body: "rename x",
  author: "rev",
};

describe("B17 git and pull-request records", () => {
  it("B17: a commit and a push appear in the thread's timeline", () => {
    const s = new ThreadScenario().create();
    const commit = {
      sha: "b".repeat(40),
      parent: null,
      branch: "skein/t1",
      message: "Fix it\n\nbody",
      files: ["a.ts"],
    };
    const { after } = given(s.events)
      .when({ type: "RecordGitCommit", data: { threadId: s.threadId, commit } })
      .then([
        { type: "GitCommitted", data: { commit, item: { type: "git", action: "committed" } } },
      ]);
    expect(after.kind === "thread" && [...after.turnItems.values()].at(-1)?.item).toMatchObject({
      title: `Committed bbbbbbbb on skein/t1: Fix it`,
    });
  });

  it("B17: the same pull request again records nothing; another while one is open is a conflict", () => {
    const s = withPullRequest();
    expect(s.state.thread?.pullRequest).toMatchObject({ number: 7, state: "open", checks: [] });
    given(s.events)
      .when({ type: "RecordPullRequest", data: { threadId: s.threadId, pullRequest: pr } })
      .then([]);
    given(s.events)
      .when({
        type: "RecordPullRequest",
        data: { threadId: s.threadId, pullRequest: { ...pr, number: 8 } },
      })
      .thenFails("conflict", /already has pull request #7 open/);
  });

  it("B17: each fact is recorded once, however often it is seen", () => {
    const s = withPullRequest();
    const check = {
      kind: "check" as const,
      key: "check:5:completed:failure",
      id: 5,
      name: "test",
      headSha: pr.headSha,
      status: "completed",
      conclusion: "failure",
      excerpt: "expected 2, got 3",
      url: null,
    };
    const facts = [comment, check, comment];
    const first = given(s.events)
      .when({ type: "RecordPullRequestFacts", data: { threadId: s.threadId, number: 7, facts } })
      .then([
        {
          type: "PullRequestFactRecorded",
          data: { fact: { key: "comment:11" }, item: { action: "review_comment" } },
        },
        {
          type: "PullRequestFactRecorded",
          data: { fact: { key: check.key }, item: { action: "check" } },
        },
      ]);
    s.exec({ type: "RecordPullRequestFacts", data: { threadId: s.threadId, number: 7, facts } });
    expect(s.state.thread?.pullRequest).toMatchObject({
      commentCount: 1,
      checks: [{ id: "check:5", conclusion: "failure" }],
    });
    expect(first.events).toHaveLength(2);
    given(s.events)
      .when({ type: "RecordPullRequestFacts", data: { threadId: s.threadId, number: 7, facts } })
      .then([]);
    // A later state of the same check is a new fact; the card keeps its latest word.
    s.exec({
      type: "RecordPullRequestFacts",
      data: {
        threadId: s.threadId,
        number: 7,
        facts: [{ ...check, key: "check:5:completed:success", conclusion: "success" }],
      },
    });
    expect(s.state.thread?.pullRequest?.checks).toMatchObject([
      { id: "check:5", conclusion: "success" },
    ]);
  });

  it("B17: facts for a pull request the thread does not have are refused", () => {
    const s = new ThreadScenario().create();
    given(s.events)
      .when({
        type: "RecordPullRequestFacts",
        data: { threadId: s.threadId, number: 7, facts: [comment] },
      })
      .thenFails("precondition_failed", /no pull request #7/);
  });

  it("B17: a merge is recorded once", () => {
    const s = withPullRequest();
    s.exec({
      type: "RecordPullRequestMerged",
      data: { threadId: s.threadId, number: 7, method: "squash", sha: "c".repeat(40) },
    });
    expect(s.state.thread?.pullRequest).toMatchObject({ state: "merged", mergeMethod: "squash" });
    given(s.events)
      .when({
        type: "RecordPullRequestMerged",
        data: { threadId: s.threadId, number: 7, method: "squash", sha: "c".repeat(40) },
      })
      .then([]);
  });
});
