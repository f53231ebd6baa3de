import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeGitHub, signWebhook, startFakeGitHub } from "./index.ts";

let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function call(path: string, init: RequestInit & { token?: string } = {}) {
  const response = await fetch(`${fake?.url}${path}`, {
    ...init,
    headers: {
      authorization: `token ${init.token ?? "t0k"}`,
      "content-type": "application/json",
      ...(init.headers as Record<string, string>),
    },
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

describe("fake GitHub REST server (B17 test support)", () => {
  it("opens a pull request once per head, serves it with an ETag and answers 304 to a match", async () => {
    fake = await startFakeGitHub({ token: "t0k" });
    fake.addRepo("acme/widgets");
    const body = JSON.stringify({ title: "Fix", head: "skein/t1", base: "main" });
    const opened = await call("/repos/acme/widgets/pulls", { method: "POST", body });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ number: 1, state: "open", head: { ref: "skein/t1" } });
    const again = await call("/repos/acme/widgets/pulls", { method: "POST", body });
    expect(again.status).toBe(422);
    expect(JSON.stringify(again.body)).toContain("already exists");

    const first = await call("/repos/acme/widgets/pulls/1");
    const etag = first.headers.get("etag") ?? "";
    expect(etag).not.toBe("");
    const second = await call("/repos/acme/widgets/pulls/1", {
      headers: { "if-none-match": etag },
    });
    expect(second.status).toBe(304);
    fake.addReviewComment("acme/widgets", {
      pullNumber: 1,
      path: "a.ts",
      line: 3,
      diffHunk: "@@ -1 +1 @@",
      body: "rename",
      user: "rev",
    });
    const comments = await call("/repos/acme/widgets/pulls/1/comments");
    expect(comments.body).toMatchObject([{ path: "a.ts", line: 3, body: "rename" }]);
    expect(fake.requests.map((r) => r.status)).toEqual([201, 422, 200, 304, 200]);
  });

  it("refuses a wrong token and answers injected faults in order", async () => {
    fake = await startFakeGitHub({ token: "t0k" });
    fake.addRepo("acme/widgets");
    expect((await call("/repos/acme/widgets", { token: "nope" })).status).toBe(401);
    fake.inject({
      status: 403,
      headers: { "retry-after": "2" },
      body: { message: "secondary rate limit" },
    });
    const limited = await call("/repos/acme/widgets");
    expect(limited.status).toBe(403);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect((await call("/repos/acme/widgets")).status).toBe(200);
  });

  it("serves check runs and statuses by commit and merges only by an allowed method", async () => {
    fake = await startFakeGitHub();
    fake.addRepo("acme/widgets", { allowMergeCommit: false });
    await call("/repos/acme/widgets/pulls", {
      method: "POST",
      body: JSON.stringify({ title: "x", head: "b", base: "main" }),
    });
    const sha = "0".repeat(40);
    fake.addCheckRun("acme/widgets", {
      headSha: sha,
      name: "test",
      status: "completed",
      conclusion: "failure",
    });
    fake.addStatus("acme/widgets", { sha, context: "ci/lint", state: "success" });
    const runs = await call(`/repos/acme/widgets/commits/${sha}/check-runs`);
    expect(runs.body.check_runs).toMatchObject([{ name: "test", conclusion: "failure" }]);
    const statuses = await call(`/repos/acme/widgets/commits/${sha}/statuses`);
    expect(statuses.body).toMatchObject([{ context: "ci/lint", state: "success" }]);
    const refused = await call("/repos/acme/widgets/pulls/1/merge", {
      method: "PUT",
      body: JSON.stringify({ merge_method: "merge" }),
    });
    expect(refused.status).toBe(405);
    const merged = await call("/repos/acme/widgets/pulls/1/merge", {
      method: "PUT",
      body: JSON.stringify({ merge_method: "squash" }),
    });
    expect(merged.body).toMatchObject({ merged: true });
    expect((await call("/repos/acme/widgets/pulls/1")).body).toMatchObject({
      state: "closed",
      merged: true,
    });
  });

  it("signs webhook deliveries with the secret given", async () => {
    fake = await startFakeGitHub();
    const seen: { signature: string; body: string; event: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({
          signature: String(req.headers["x-hub-signature-256"]),
          event: String(req.headers["x-github-event"]),
          body: Buffer.concat(chunks).toString("utf8"),
        });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    await fake.deliver({ url, secret: "s3", event: "check_run", payload: { action: "completed" } });
    receiver.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.event).toBe("check_run");
    expect(seen[0]?.signature).toBe(signWebhook("s3", seen[0]?.body ?? ""));
    expect(seen[0]?.signature).not.toBe(signWebhook("other", seen[0]?.body ?? ""));
  });
});
