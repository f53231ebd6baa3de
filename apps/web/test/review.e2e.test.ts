import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyPatchReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";
import { newThread, openThread, sendAndSeeReplies } from "./support/threads.ts";

const FIRST_PATCH = [
  "*** Begin Patch",
  "*** Update File: README.md",
  "@@",
  " # demo",
  "+",
  "+Reviewed by the agent.",
  "*** Add File: src/app.ts",
  "+export function greet(name: string): string {",
  '+  return "hello " + name;',
  "+}",
  "*** End Patch",
  "",
].join("\n");

const SECOND_PATCH = [
  "*** Begin Patch",
  "*** Update File: src/app.ts",
  "@@",
  " export function greet(name: string): string {",
  '-  return "hello " + name;',
  '+  return "hello, " + name + "!";',
  " }",
  "*** End Patch",
  "",
].join("\n");

/**
 * Issue 17 item 3 in the browser: the Review tab shows what real Codex changed (apply_patch
 * against a fake model), file list with +/− counts, unified and split diffs highlighted, and
 * "since I last looked"; the first checkpoint does not list files that were there before.
 */
describe.runIf(chromiumAvailable)("Review diffs (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  const reviewedPaths = () =>
    e2e.page
      .locator(".review-file")
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-path") ?? ""));

  it("per run and per thread, unified and split, highlighted, and since I last looked", async () => {
    const { stack, page } = e2e;
    // The user's own uncommitted file, there before the thread's first run.
    writeFileSync(path.join(stack.providers.workspace, "notes.txt"), "my own notes\n");
    const { client, threadId } = await newThread(stack, {
      project: "Review project",
      title: "Review thread",
      provider: "codex",
      runtimeMode: "full-access",
      // The person's own files sit next to the agent's here (issue 26: a local thread).
      workspace: "local",
    });
    stack.providers.openai.enqueue(
      applyPatchReply(FIRST_PATCH, "call_first"),
      responsesTextReply("FIRST-DONE"),
    );
    await openThread(page, stack, threadId);
    await sendAndSeeReplies(page, "add a greeting", ["FIRST-DONE"], 90_000);
    await expect
      .poll(async () => (await client.thread.detail.query({ threadId })).checkpoints.length, {
        timeout: 30_000,
      })
      .toBe(1);

    // The first checkpoint lists the run's two files, not README's neighbours or notes.txt.
    const [checkpoint] = (await client.thread.detail.query({ threadId })).checkpoints;
    expect(checkpoint?.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      "added src/app.ts",
      "modified README.md",
    ]);

    await page.getByRole("link", { name: "Review", exact: true }).click();
    await expect.poll(reviewedPaths, { timeout: 30_000 }).toEqual(["README.md", "src/app.ts"]);
    const files = page.getByRole("navigation", { name: "Changed files" });
    expect(await text(files)).toContain("src/app.ts");
    expect(await text(files)).not.toContain("notes.txt");
    expect(await text(page.locator(".review-summary"))).toMatch(/2 files changed\s+\+5\s+−0/);
    const app = page.locator('.review-file[data-path="src/app.ts"]');
    // Highlighted by lowlight (TypeScript keywords carry highlight.js classes).
    await app.locator(".hljs-keyword").first().waitFor();
    expect(await app.locator(".diff-unified").count()).toBe(1);
    await saveScreenshot(page, "review-unified");

    await page.getByRole("button", { name: "Split", exact: true }).click();
    await app.locator(".diff-split").waitFor();
    await saveScreenshot(page, "review-split");
    await page.getByRole("button", { name: "Unified", exact: true }).click();

    await page.getByRole("button", { name: "Mark as seen" }).click();
    await page.getByRole("button", { name: "All seen" }).waitFor();

    stack.providers.openai.enqueue(
      applyPatchReply(SECOND_PATCH, "call_second"),
      responsesTextReply("SECOND-DONE"),
    );
    await page.getByRole("link", { name: "Conversation", exact: true }).click();
    await sendAndSeeReplies(page, "punctuate it", ["FIRST-DONE", "SECOND-DONE"], 90_000);
    await expect
      .poll(async () => (await client.thread.detail.query({ threadId })).checkpoints.length, {
        timeout: 30_000,
      })
      .toBe(2);

    await page.getByRole("link", { name: "Review", exact: true }).click();
    const scope = page.getByRole("combobox", { name: "Which changes" });
    await scope.selectOption("since");
    await expect.poll(reviewedPaths, { timeout: 30_000 }).toEqual(["src/app.ts"]);
    expect(await text(page.locator(".review-summary"))).toMatch(/\+1\s+−1/);
    await page.getByRole("button", { name: "Mark as seen" }).waitFor();
    await saveScreenshot(page, "review-since-last-looked");

    // A reload keeps what was seen (localStorage); marking again leaves nothing new.
    await page.getByRole("button", { name: "Mark as seen" }).click();
    await page.reload();
    await page.getByRole("combobox", { name: "Which changes" }).selectOption("since");
    await page.locator(".review-empty").waitFor();
    expect(await text(page.locator(".review-empty"))).toMatch(/No changes since you last looked/);

    // Per run: Run 1 alone, opened from the checkpoint card's file link.
    await page.getByRole("link", { name: /^Checkpoints/ }).click();
    await page
      .getByRole("region", { name: "checkpoint after run 1" })
      .getByRole("link", { name: "README.md" })
      .click();
    await page.waitForURL(/\/review\?run=/);
    await expect.poll(reviewedPaths, { timeout: 30_000 }).toEqual(["README.md", "src/app.ts"]);
    expect(await page.getByRole("combobox", { name: "Which changes" }).inputValue()).toMatch(
      /^run:/,
    );

    // B14: run 1's README change reverted from its diff, the person's notes untouched; undone.
    const readme = () => readFileSync(path.join(stack.providers.workspace, "README.md"), "utf8");
    const agentReadme = readme();
    expect(agentReadme).toContain("Reviewed by the agent.");
    await page.getByRole("button", { name: "Revert file README.md" }).click();
    await page.locator(".review-reverted").waitFor();
    await expect.poll(readme).not.toContain("Reviewed by the agent.");
    expect(readFileSync(path.join(stack.providers.workspace, "notes.txt"), "utf8")).toBe(
      "my own notes\n",
    );
    await saveScreenshot(page, "review-reverted");
    await page.getByRole("button", { name: "Undo revert" }).click();
    // The undo writes the file back and records it before the page says so: on a loaded machine
    // that is seconds, not the poll's default second.
    await expect
      .poll(() => text(page.locator(".review-reverted")), { timeout: 30_000 })
      .toContain("Put back");
    expect(readme()).toBe(agentReadme);
  }, 600_000);
});
