import { existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  anthropicBashReply,
  anthropicTextReply,
  anthropicWriteReply,
  applyPatchReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import type { Stack } from "./support/stack.ts";
import { assistantTexts, sendMessage, text } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

/**
 * A thread that asks before every change, in a project whose threads work in its own folder
 * (the fake models name files there).
 */
const carefulThread = (
  stack: Stack,
  provider: "claude" | "codex",
  project: string,
  title: string,
) =>
  newThread(stack, {
    project,
    projectSettings: { threadWorkspace: "local" },
    title,
    provider,
    runtimeMode: "approval-required",
  });

/**
 * A file write's approval card shows its diff: the file named relative to the workspace (never
 * the workspace's own path) and exactly `lines` added.
 */
async function expectAddedLines(card: Locator, workspace: string, name: string, lines: string[]) {
  const shown = await text(card);
  expect(shown).toContain(`@@ ./${name} @@`);
  expect(shown).toMatch(new RegExp(lines.map((line) => `\\+${line}`).join("\\s+")));
  expect(shown).not.toContain(workspace);
  expect(await card.locator(".diff-line.diff-add").count()).toBe(lines.length);
}

/** The Approvals page shows the same diff for the waiting write; accepting it there writes it. */
async function acceptOnApprovalsPage(
  page: Page,
  webUrl: string,
  file: string,
  lines: string[],
  screenshot?: string,
) {
  await page.goto(`${webUrl}/approvals`);
  const request = page.locator(".request-card").first();
  await request.waitFor();
  await expect.poll(() => text(request)).toContain(`@@ ./${basename(file)} @@`);
  expect(await request.locator(".diff-line.diff-add").count()).toBe(lines.length);
  if (screenshot) await saveScreenshot(page, screenshot);
  await request.getByRole("button", { name: /^Accept: / }).click();
  await expect
    .poll(() => (existsSync(file) ? readFileSync(file, "utf8") : null), { timeout: 60_000 })
    .toBe(lines.map((line) => `${line}\n`).join(""));
}

/**
 * B16 in the browser (issue 29 item 1), real Claude: a Write waiting for approval shows the
 * diff it plans (relative path, added lines) on its card, marked as waiting for you, and the
 * same on the Approvals page; a command's approval shows the command once and where it runs,
 * relative to the workspace. Codex's file-change approvals show their diff the same way.
 */
describe.runIf(chromiumAvailable)(
  "approvals show what they approve (Chromium, real Claude and Codex)",
  () => {
    const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

    it("B16: a Claude Write approval shows its diff, waiting for you, in the thread and on the Approvals page; a command shows once", async () => {
      const { stack, page } = e2e;
      const workspace = stack.providers.workspace;
      const { threadId } = await carefulThread(stack, "claude", "Approvals", "Careful thread");
      const file = join(workspace, "notes.txt");
      stack.providers.anthropic.enqueue(
        anthropicWriteReply(file, "alpha\nbeta\n"),
        anthropicTextReply("WROTE-NOTES"),
      );
      await openThread(page, stack, threadId);
      await sendMessage(page, "write the notes");

      const card = page.locator(".conversation .approval").last();
      await card.getByRole("button", { name: /^Accept: / }).waitFor({ timeout: 60_000 });
      expect(await card.getAttribute("data-waiting")).toBe("true");
      expect(await text(card.locator(".badge-waiting"))).toMatch(/waiting for you/i);
      await expectAddedLines(card, workspace, "notes.txt", ["alpha", "beta"]);
      expect(existsSync(file)).toBe(false);
      await saveScreenshot(page, "approval-write-diff");

      // The Approvals page shows the same, and is where it is answered.
      await acceptOnApprovalsPage(
        page,
        stack.web.url,
        file,
        ["alpha", "beta"],
        "approvals-page-diff",
      );

      // A command: said once, and where it runs, relative to the workspace.
      await page.goto(`${stack.web.url}/threads/${threadId}`);
      await expect.poll(() => assistantTexts(page), { timeout: 60_000 }).toEqual(["WROTE-NOTES"]);
      stack.providers.anthropic.enqueue(
        anthropicBashReply("echo once-only > out.txt"),
        anthropicTextReply("RAN-IT"),
      );
      await sendMessage(page, "run it");
      const commandCard = page.locator(".conversation .approval").last();
      await commandCard.getByRole("button", { name: /^Accept: / }).waitFor({ timeout: 60_000 });
      await expect.poll(() => commandCard.getAttribute("data-waiting")).toBe("true");
      const said = await text(commandCard);
      expect(count(said, "echo once-only > out.txt")).toBe(1);
      expect(said).toContain("in the workspace");
      expect(said).not.toContain(workspace);
      await saveScreenshot(page, "approval-command-once");
      await commandCard.getByRole("button", { name: /^Accept: / }).click();
      await expect
        .poll(() => assistantTexts(page), { timeout: 60_000 })
        .toEqual(["WROTE-NOTES", "RAN-IT"]);
      expect(await commandCard.getAttribute("data-waiting")).toBeNull();
    });

    it("B16: a Codex file-change approval shows the diff of the file it writes, in the thread and on the Approvals page", async () => {
      const { stack, page } = e2e;
      const workspace = stack.providers.workspace;
      const { threadId } = await carefulThread(
        stack,
        "codex",
        "Codex approvals",
        "Careful Codex thread",
      );
      const file = join(workspace, "codex-notes.txt");
      const patch =
        "*** Begin Patch\n*** Add File: codex-notes.txt\n+gamma\n+delta\n*** End Patch\n";
      stack.providers.openai.enqueue(
        applyPatchReply(patch, "call_notes"),
        responsesTextReply("WROTE-CODEX-NOTES"),
      );
      await openThread(page, stack, threadId);
      await sendMessage(page, "write the codex notes");

      const card = page.locator(".conversation .approval").last();
      await card.getByRole("button", { name: /^Accept: / }).waitFor({ timeout: 60_000 });
      await expectAddedLines(card, workspace, "codex-notes.txt", ["gamma", "delta"]);
      expect(existsSync(file)).toBe(false);
      await saveScreenshot(page, "approval-codex-diff");

      await acceptOnApprovalsPage(page, stack.web.url, file, ["gamma", "delta"]);

      // The edit's own card shows the new file's lines as added ones too, not as context.
      await page.goto(`${stack.web.url}/threads/${threadId}`);
      await expect
        .poll(() => assistantTexts(page), { timeout: 60_000 })
        .toEqual(["WROTE-CODEX-NOTES"]);
      const edit = page.locator(".conversation .item-file_change").last();
      await expect.poll(() => edit.locator(".diff-line.diff-add").count()).toBe(2);
      expect(await text(edit)).toContain("./codex-notes.txt");
      await saveScreenshot(page, "codex-edit-card");
    });
  },
);
