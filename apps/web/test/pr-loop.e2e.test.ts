import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGitHub, startFakeGitHub } from "../../../tooling/fake-github/src/index.ts";
import {
  applyPatchReply,
  conversationText,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts, text } from "./support/ui.ts";

const TOKEN = "ghp_fake_token_for_e2e";
const REMOTE = "https://github.com/acme/widgets.git";

const ADD_APP = [
  "*** Begin Patch",
  "*** Add File: src/app.ts",
  "+export function greet(name: string): string {",
  '+  return "hello " + name;',
  "+}",
  "*** End Patch",
  "",
].join("\n");

const RENAME = [
  "*** Begin Patch",
  "*** Update File: src/app.ts",
  "@@",
  "-export function greet(name: string): string {",
  "+export function welcome(name: string): string {",
  '   return "hello " + name;',
  " }",
  "*** End Patch",
  "",
].join("\n");

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8" });

/**
 * B17 in the browser: Commit → Push → Open pull request on the Review page against a fake GitHub
 * (git itself reaches a local bare repository through `insteadOf`); a comment written on a diff
 * line goes to real Codex with its file, line and hunk; the agent answers in the thread; Commit
 * and Push its fix; the PR card shows the new head's check.
 */
describe.runIf(chromiumAvailable)(
  "From a diff line to the pull request (Chromium, real API, real Codex)",
  () => {
    let fake: FakeGitHub;
    let root: string;
    let ws: string;
    let bare: string;

    beforeAll(async () => {
      fake = await startFakeGitHub({ token: TOKEN });
      root = mkdtempSync(path.join(tmpdir(), "skein-pr-e2e-"));
      bare = path.join(root, "widgets.git");
      ws = path.join(root, "ws");
      execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
      fake.addRepo("acme/widgets", { gitDir: bare, allowMergeCommit: false });
      execFileSync("git", ["init", "-q", "-b", "main", ws]);
      git(ws, "config", "user.name", "Pat Person");
      git(ws, "config", "user.email", "pat@example.invalid");
      writeFileSync(path.join(ws, "README.md"), "# widgets\n");
      git(ws, "add", "-A");
      git(ws, "commit", "-q", "-m", "initial");
      git(ws, "remote", "add", "origin", REMOTE);
      git(ws, "config", `url.${bare}.insteadOf`, REMOTE);
      git(ws, "push", "-q", "origin", "main");
      git(ws, "checkout", "-q", "-b", "feature");
    });
    afterAll(async () => {
      await fake?.close();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    const e2e = useE2eStack({
      viewport: { width: 1400, height: 900 },
      apiEnv: () => ({ GITHUB_TOKEN: TOKEN, SKEIN_GITHUB_API_URL: fake.url }),
    });

    const status = () => text(e2e.page.locator(".pr-notice"));

    it("B17: Commit, Push, Open PR; a comment on a diff line reaches the agent, which answers; Push; the PR card updates", async () => {
      const { stack, page } = e2e;
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const { projectId } = await client.project.create.mutate({
        name: "Widgets",
        workspaceRoot: ws,
      });
      const { threadId } = await client.thread.create.mutate({
        projectId,
        title: "Greeting",
        provider: "codex",
        runtimeMode: "full-access",
      });
      // The thread works in its own worktree (the default in a git project), on its own branch.
      const branch = () => `skein/${threadId}`;
      let worktreePath: string | null = null;
      const worktree = () => {
        if (!worktreePath) throw new Error("the thread has no worktree");
        return worktreePath;
      };
      const committed = () => new RegExp(`^Committed 1 file as [0-9a-f]{7} on ${branch()}\\.$`);
      stack.providers.openai.enqueue(
        applyPatchReply(ADD_APP, "call_add"),
        responsesTextReply("ADDED"),
      );
      const first = await client.thread.sendMessage.mutate({ threadId, text: "add a greeting" });
      await expect
        .poll(
          async () =>
            (await client.thread.detail.query({ threadId })).checkpoints.some(
              (c) => c.runId === first.runId && c.status === "ready",
            ),
          { timeout: 90_000 },
        )
        .toBe(true);

      worktreePath = (await client.thread.detail.query({ threadId })).thread.worktreePath;
      await page.goto(`${stack.web.url}/threads/${threadId}`);
      await page.getByRole("link", { name: "Commit & PR…" }).click();
      await page.waitForURL(/\/review$/);
      const app = page.locator('.review-file[data-path="src/app.ts"]');
      await app.waitFor({ timeout: 30_000 });
      const panel = page.getByRole("region", { name: "Commit and pull request" });
      await panel.getByRole("button", { name: "Commit", exact: true }).click();
      await expect.poll(status).toMatch(committed());
      await panel.getByRole("button", { name: "Push", exact: true }).click();
      await expect.poll(status).toBe(`Pushed ${branch()} to origin.`);
      await panel.getByRole("button", { name: "Open pull request" }).click();
      await expect.poll(status).toBe("Opened pull request #1.");
      await expect
        .poll(() => text(page.locator(".pr-card .pr-title")))
        .toMatch(/#1 Greeting\s+open/);
      expect(fake.pulls("acme/widgets")).toHaveLength(1);
      // The thread header names the PR wherever the person is in the thread.
      await expect.poll(() => text(page.locator(".thread-pr"))).toBe("PR #1 open");
      await page.getByRole("link", { name: "Pull request #1…" }).waitFor();

      // A comment on line 1 of the new file, written on the diff: the model's next request has it.
      stack.providers.openai.enqueue(
        applyPatchReply(RENAME, "call_rename"),
        responsesTextReply("RENAMED"),
      );
      const asked = stack.providers.openai.requests.length;
      await app.locator("td.diff-gutter").filter({ hasText: /^1$/ }).first().click();
      const box = page.getByRole("form", { name: "Comment on src/app.ts:1" });
      await box.getByRole("textbox").fill("call it welcome");
      await saveScreenshot(page, "review-line-comment");
      await box.getByRole("button", { name: "Send to the agent" }).click();
      await expect
        .poll(() => text(page.locator(".review-comment-sent")))
        .toBe("Sent your comment on src/app.ts:1 to the agent.");
      const sent = await stack.providers.openai.waitForRequests(asked + 1, 60_000);
      const request = conversationText(sent[asked]!);
      expect(request).toContain("src/app.ts:1 — the person reviewing in Skein wrote:");
      expect(request).toContain("> call it welcome");
      expect(request).toContain("+export function greet(name: string): string {");

      await page.getByRole("link", { name: "Conversation", exact: true }).click();
      await expect
        .poll(() => assistantTexts(page), { timeout: 90_000 })
        .toEqual(["ADDED", "RENAMED"]);
      await expect
        .poll(async () => (await client.thread.detail.query({ threadId })).checkpoints.length, {
          timeout: 30_000,
        })
        .toBe(2);

      await page.getByRole("link", { name: "Review", exact: true }).click();
      await panel.getByRole("button", { name: "Commit", exact: true }).click();
      await expect.poll(status).toMatch(committed());
      await panel.getByRole("button", { name: "Push", exact: true }).click();
      await expect.poll(status).toBe(`Pushed ${branch()} to origin.`);
      const head = git(worktree(), "rev-parse", "HEAD").trim();
      expect(
        execFileSync("git", ["show", `${branch()}:src/app.ts`], { cwd: bare, encoding: "utf8" }),
      ).toContain("export function welcome");
      fake.addCheckRun("acme/widgets", {
        headSha: head,
        name: "unit tests",
        status: "completed",
        conclusion: "success",
      });
      await panel.getByRole("button", { name: "Check GitHub now" }).click();
      await expect
        .poll(() => text(page.locator(".pr-checks")), { timeout: 30_000 })
        .toMatch(/unit tests\s+passed/);
      await saveScreenshot(page, "review-pull-request-card");
    }, 600_000);
  },
);
