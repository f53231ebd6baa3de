import { type FakeGitHub, startFakeGitHub } from "@skein/fake-github";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  createGitHubClient,
  GitFinishError,
  mergePullRequest,
  openPullRequest,
  PullRequestPoller,
} from "./index.ts";

/** A fake GitHub that accepts `token`, closed when the running test finishes. */
async function startFake(token: string): Promise<FakeGitHub> {
  const fake = await startFakeGitHub({ token });
  onTestFinished(() => fake.close());
  return fake;
}

const repo = { owner: "acme", name: "widgets" };
const noGh = async () => null;

async function setup() {
  const fake = await startFake("t0k");
  fake.addRepo("acme/widgets", { allowMergeCommit: false });
  const client = await createGitHubClient(
    { GITHUB_TOKEN: "t0k", SKEIN_GITHUB_API_URL: fake.url },
    noGh,
  );
  return { fake, client };
}

describe("pull requests against the fake GitHub REST API (B17)", () => {
  it("B17: opens one pull request for a head however often it is asked", async () => {
    const { fake, client } = await setup();
    const input = { repo, head: "skein/t1", title: "Do it", body: "summary" };
    const first = await openPullRequest(client, input);
    const second = await openPullRequest(client, input);
    expect(first).toMatchObject({
      created: true,
      pull: { number: 1, base: "main", head: "skein/t1" },
    });
    expect(second).toMatchObject({ created: false, pull: { number: 1 } });
    expect(fake.pulls("acme/widgets")).toHaveLength(1);
    expect(fake.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    const sent = fake.requests.find((r) => r.method === "POST");
    expect(sent?.body).toMatchObject({ title: "Do it", body: "summary", base: "main" });
    expect(sent?.headers.authorization).toBe("token t0k");
  });

  it("B17: a refused token and a missing token end in words", async () => {
    const fake = await startFake("right");
    fake.addRepo("acme/widgets");
    const client = await createGitHubClient(
      { GH_TOKEN: "wrong", SKEIN_GITHUB_API_URL: fake.url },
      noGh,
    );
    const error = await openPullRequest(client, { repo, head: "b", title: "t", body: "" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitFinishError);
    expect((error as GitFinishError).kind).toBe("auth");
    expect((error as Error).message).toMatch(/refused the token/);
    expect(fake.pulls("acme/widgets")).toHaveLength(0);
    await expect(createGitHubClient({}, noGh)).rejects.toThrow(/no GitHub token/);
  });

  it("B17: polling sends ETags, counts 304s and sees each fact with a stable key", async () => {
    const { fake, client } = await setup();
    await openPullRequest(client, { repo, head: "skein/t1", title: "t", body: "" });
    const sha = fake.pulls("acme/widgets")[0]?.headSha ?? "";
    const run = fake.addCheckRun("acme/widgets", {
      headSha: sha,
      name: "test",
      status: "in_progress",
      conclusion: null,
    });
    const poller = new PullRequestPoller(client, repo, 1, 1_000);
    const first = await poller.poll();
    expect(first.stopped).toBeNull();
    expect(first.notModified).toBe(0);
    expect(first.observations.map((o) => o.key)).toEqual([
      `state:open:${sha}`,
      `check:${run.id}:in_progress:none`,
    ]);
    const second = await poller.poll();
    expect(second.notModified).toBe(5);
    expect(second.observations.map((o) => o.key)).toEqual(first.observations.map((o) => o.key));
    const conditional = fake.requests.filter((r) => r.headers["if-none-match"]);
    expect(conditional).toHaveLength(5);

    fake.updateCheckRun(run.id, {
      status: "completed",
      conclusion: "failure",
      output: {
        title: "1 failing",
        summary: null,
        text: `${"x".repeat(10_000)}\nexpected 2, got 3`,
      },
    });
    const comment = fake.addReviewComment("acme/widgets", {
      pullNumber: 1,
      path: "src/a.ts",
      line: 4,
      diffHunk: "@@ -1,3 +1,4 @@\n+const a = 1;",
      body: "use a better name",
      user: "reviewer",
    });
    const third = await poller.poll();
    expect(third.notModified).toBe(3);
    const check = third.observations.find((o) => o.kind === "check");
    expect(check?.key).toBe(`check:${run.id}:completed:failure`);
    expect(check?.kind === "check" && check.excerpt.length).toBeLessThan(4_100);
    expect(check?.kind === "check" && check.excerpt).toMatch(/expected 2, got 3$/);
    expect(third.observations.find((o) => o.kind === "comment")).toMatchObject({
      key: `comment:${comment.id}`,
      path: "src/a.ts",
      line: 4,
      author: "reviewer",
    });
  });

  it("B17: polling honours retry-after and backs off after failures, bounded", async () => {
    const { fake, client } = await setup();
    await openPullRequest(client, { repo, head: "skein/t1", title: "t", body: "" });
    const poller = new PullRequestPoller(client, repo, 1, 1_000);
    fake.inject({
      match: /^GET \/repos\/acme\/widgets\/pulls\/1$/,
      status: 403,
      headers: { "retry-after": "120" },
      body: { message: "You have exceeded a secondary rate limit" },
    });
    const before = fake.requests.length;
    const limited = await poller.poll();
    expect(limited.stopped?.reason).toBe("rate_limited");
    expect(limited.nextPollInMs).toBe(120_000);
    // The poll stopped at the refusal: no further request in the same poll.
    expect(fake.requests.length - before).toBe(1);
    fake.inject(
      { status: 500, body: { message: "boom" } },
      { status: 500, body: { message: "boom" } },
    );
    const failed = await poller.poll();
    expect(failed.stopped?.reason).toBe("failed");
    expect(failed.nextPollInMs).toBe(2_000);
    expect((await poller.poll()).nextPollInMs).toBe(4_000);
    expect((await poller.poll()).stopped).toBeNull();
  });

  it("B17: merges with the repository's allowed method, pinned to the head it saw", async () => {
    const { fake, client } = await setup();
    const { pull } = await openPullRequest(client, {
      repo,
      head: "skein/t1",
      title: "t",
      body: "",
    });
    const merged = await mergePullRequest(client, repo, pull.number, pull.headSha);
    expect(merged.method).toBe("squash");
    expect(fake.pulls("acme/widgets")[0]).toMatchObject({ merged: true, mergeMethod: "squash" });
    // A retry after a crash answers as merged without a second merge request.
    await expect(mergePullRequest(client, repo, pull.number, pull.headSha)).resolves.toBeTruthy();
    expect(fake.requests.filter((r) => r.method === "PUT")).toHaveLength(1);
  });
});
