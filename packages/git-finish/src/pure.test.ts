import { describe, expect, it } from "vitest";
import {
  draftCommitMessage,
  failingCheckMessage,
  parseRemoteUrl,
  parseRepositorySetting,
  rateLimitWait,
  reviewCommentsMessage,
  verifyWebhookSignature,
} from "./index.ts";
import { createHmac } from "node:crypto";

describe("git finish line, pure parts (B17)", () => {
  it.each([
    ["https://github.com/acme/widgets.git", "acme/widgets"],
    ["https://github.com/acme/widgets", "acme/widgets"],
    ["https://github.com/acme/widgets/", "acme/widgets"],
    ["https://user:tok@github.com/acme/widgets.git", "acme/widgets"],
    ["git@github.com:acme/widgets.git", "acme/widgets"],
    ["git@github.com:acme/widgets", "acme/widgets"],
    ["ssh://git@github.com/acme/widgets.git", "acme/widgets"],
    ["ssh://git@github.com:22/acme/widgets.git", "acme/widgets"],
    ["git://github.com/acme/widgets.git", "acme/widgets"],
    ["https://ghe.example.com/acme/my.repo.git", "acme/my.repo"],
  ])("B17: reads the repository from %s", (url, expected) => {
    const ref = parseRemoteUrl(url);
    expect(ref && `${ref.owner}/${ref.name}`).toBe(expected);
  });

  it.each([
    "/srv/git/widgets.git",
    "../widgets",
    "https://github.com/acme",
    "file:///a/b",
    "",
    "https://github.com/a/b/c",
  ])("B17: %s names no GitHub repository", (url) => {
    expect(parseRemoteUrl(url)).toBeNull();
  });

  it("B17: a project setting is owner/name and nothing else", () => {
    expect(parseRepositorySetting(" acme/widgets ")).toEqual({ owner: "acme", name: "widgets" });
    expect(parseRepositorySetting("acme")).toBeNull();
    expect(parseRepositorySetting("acme/wid gets")).toBeNull();
    expect(parseRepositorySetting("a/b/c")).toBeNull();
  });

  it("B17: a webhook signature verifies only under the right secret and body", () => {
    const body = '{"action":"completed"}';
    const good = `sha256=${createHmac("sha256", "s3cret").update(body).digest("hex")}`;
    expect(verifyWebhookSignature("s3cret", body, good)).toBe(true);
    expect(verifyWebhookSignature("other", body, good)).toBe(false);
    expect(verifyWebhookSignature("s3cret", `${body} `, good)).toBe(false);
    expect(verifyWebhookSignature("s3cret", body, undefined)).toBe(false);
    expect(verifyWebhookSignature("s3cret", body, "sha256=00")).toBe(false);
    expect(verifyWebhookSignature("", body, good)).toBe(false);
  });

  it("B17: a review comment message carries file, line and hunk; a failing check its excerpt", () => {
    const text = reviewCommentsMessage(7, [
      {
        path: "src/a.ts",
        line: 12,
        diffHunk: "@@ -10,2 +10,3 @@\n+let x = 1;",
        body: "name this better",
        author: "rev",
      },
    ]);
    expect(text).toContain("src/a.ts:12 — rev wrote:");
    expect(text).toContain("> name this better");
    expect(text).toContain("@@ -10,2 +10,3 @@\n+let x = 1;");
    expect(text).toContain("pull request #7");
    const fix = failingCheckMessage(7, {
      kind: "check",
      key: "check:5:completed:failure",
      id: 5,
      name: "unit tests",
      headSha: "abcdef0123456789",
      status: "completed",
      conclusion: "failure",
      excerpt: "expected 2, got 3",
      url: null,
    });
    expect(fix).toMatch(/^Fix the failing check "unit tests" on pull request #7/);
    expect(fix).toContain("expected 2, got 3");
  });

  it("B17: a drafted commit message is the thread's title over its requests", () => {
    expect(
      draftCommitMessage("Add login", ["make a login form\nwith details", "fix the test"]),
    ).toBe("Add login\n\n- make a login form\n- fix the test\n");
    expect(draftCommitMessage("  ", [])).toBe("Changes from Skein\n");
  });

  it("B17: rate-limit waits come from retry-after or the reset time, and only for limits", () => {
    const err = (status: number, headers: Record<string, string>) => ({
      status,
      response: { headers },
    });
    expect(rateLimitWait(err(403, { "retry-after": "30" }), 0)).toBe(30_000);
    expect(
      rateLimitWait(err(403, { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "100" }), 40_000),
    ).toBe(60_000);
    expect(rateLimitWait(err(403, {}), 0)).toBeNull();
    expect(rateLimitWait(err(500, { "retry-after": "1" }), 0)).toBeNull();
  });
});
