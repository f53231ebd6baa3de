import { join } from "node:path";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { describe, expect, it } from "vitest";
import {
  anthropicTextReply,
  anthropicWriteReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";

/**
 * Issue 29 item 5 in the browser, real Codex and Claude: a sidebar row tells threads apart by
 * the provider of its latest run, its branch and how long ago it moved; a thread waiting on an
 * approval says "needs you"; a run that ends while the person is elsewhere leaves the row unread
 * until they open it; the row counts the thread's net change; the search reads messages too.
 */
describe.runIf(chromiumAvailable)("sidebar rows (Chromium, real Codex and Claude)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  const row = (threadId: string) =>
    e2e.page.locator(`.sidebar .thread-row[data-thread-id="${threadId}"]`);

  it("shows provider, branch and relative time; needs you on a pending approval; unread until opened", async () => {
    const { stack, page } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const workspace = stack.providers.workspace;
    const { projectId } = await client.project.create.mutate({
      name: "Rows",
      workspaceRoot: workspace,
    });
    // A Codex thread in its own worktree (the default in a git project).
    const { threadId: codexThread } = await client.thread.create.mutate({
      projectId,
      title: "Codex row",
      provider: "codex",
    });
    // A Claude thread asking before it writes, in the project's folder (the fake model's path).
    const { threadId: claudeThread } = await client.thread.create.mutate({
      projectId,
      title: "Claude row",
      provider: "claude",
      runtimeMode: "approval-required",
      workspace: "local",
    });

    await page.goto(stack.web.url);
    const codexRow = row(codexThread);
    await codexRow.waitFor();
    // Before any run: the thread's provider, its branch, and a time just now.
    const { thread } = await client.thread.detail.query({ threadId: codexThread });
    expect(thread.branch).toMatch(/^skein\//);
    expect(await text(codexRow.locator(".provider-mark"))).toBe("Codex");
    expect(await codexRow.locator(".provider-mark").getAttribute("title")).toBe(
      "Codex, no run yet",
    );
    expect(await text(codexRow.locator(".row-branch"))).toBe(thread.branch);
    expect(await text(codexRow.locator(".row-time"))).toBe("just now");
    expect(await codexRow.getAttribute("data-attention")).toBeNull();

    // A Codex run ends while the person is on the project list: the row turns unread.
    stack.providers.openai.enqueue(responsesTextReply("CODEX-DONE"));
    await client.thread.sendMessage.mutate({ threadId: codexThread, text: "say done" });
    await expect
      .poll(() => codexRow.getAttribute("data-attention"), { timeout: 60_000 })
      .toBe("unread");
    expect(await codexRow.locator(".provider-mark").getAttribute("title")).toBe(
      "Latest run on Codex",
    );
    expect(await codexRow.getByRole("img", { name: "unread" }).count()).toBe(1);

    // A Claude Write waiting for approval: the row needs you, marked with Claude.
    stack.providers.anthropic.enqueue(anthropicWriteReply(join(workspace, "row-notes.txt"), "x\n"));
    await client.thread.sendMessage.mutate({ threadId: claudeThread, text: "write notes" });
    const claudeRow = row(claudeThread);
    await expect
      .poll(() => claudeRow.getAttribute("data-attention"), { timeout: 60_000 })
      .toBe("needs-you");
    expect(await text(claudeRow.locator(".needs-you"))).toBe("needs you");
    expect(await text(claudeRow.locator(".provider-mark"))).toBe("Claude");
    // The project's folder as it is: no branch to show.
    expect(await claudeRow.locator(".row-branch").count()).toBe(0);
    await saveScreenshot(page, "sidebar-rows");

    // Opening the Codex thread reads it; it stays read after moving on.
    await codexRow.getByRole("link", { name: "Codex row", exact: true }).click();
    await page.waitForURL(new RegExp(`/threads/${codexThread}$`));
    await page.getByLabel("Message").waitFor();
    await page.goto(`${stack.web.url}/threads/${claudeThread}`);
    await page.getByLabel("Message").waitFor();
    await codexRow.waitFor();
    expect(await codexRow.getAttribute("data-attention")).toBeNull();
    expect(await claudeRow.getAttribute("data-attention")).toBe("needs-you");

    // Answered, the Claude thread needs nothing more.
    const { requests } = await client.request.pending.query({ threadId: claudeThread });
    expect(requests.length).toBe(1);
    stack.providers.anthropic.enqueue(anthropicTextReply("WROTE-ROW-NOTES"));
    await page
      .locator(".conversation .approval")
      .last()
      .getByRole("button", { name: /^Accept: / })
      .click();
    await expect
      .poll(() => claudeRow.getAttribute("data-attention"), { timeout: 60_000 })
      .toBeNull();
    // The write is the thread's net change: its row counts it once the run's checkpoint is in.
    const stat = claudeRow.locator(".row-diffstat");
    await expect
      .poll(() => stat.getAttribute("aria-label"), { timeout: 60_000 })
      .toBe("1 line added, 0 removed, in 1 file");
    expect(await stat.textContent()).toBe("+1−0");
    // The Codex thread changed no file: no stat.
    expect(await codexRow.locator(".row-diffstat").count()).toBe(0);
    await saveScreenshot(page, "sidebar-rows-diffstat");
  });

  it("search finds a thread by a word from a message, shown around the match", async () => {
    const { page } = e2e;
    // The Claude thread's reply said WROTE-ROW-NOTES; neither title holds "row-notes".
    const search = page.getByLabel("Search threads");
    await search.fill("row-notes");
    const found = page.locator(".sidebar .thread-row");
    await expect.poll(() => found.count(), { timeout: 30_000 }).toBe(1);
    expect(await text(found.locator(".thread-link"))).toBe("Claude row");
    const excerpt = found.locator(".thread-row-excerpt");
    expect(await text(excerpt.locator("mark"))).toMatch(/^row-notes$/i);
    expect(await text(excerpt)).toContain("WROTE-ROW-NOTES");
    await saveScreenshot(page, "sidebar-message-search");
    // A title match still reads as a title match: no excerpt.
    await search.fill("codex row");
    await expect.poll(() => text(found.locator(".thread-link"))).toBe("Codex row");
    expect(await found.locator(".thread-row-excerpt").count()).toBe(0);
    await search.fill("");
  });
});
