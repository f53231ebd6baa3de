import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";

const threadIdOf = (page: Page) => /\/threads\/(thr_[^/?#]+)/.exec(page.url())?.[1] ?? "";

/**
 * Issue 26 item 3 (B14) in the browser: the new-thread form offers the thread's workspace, its
 * own worktree by default in a git project or the project's folder; a worktree thread shows its
 * PORT and how its setup went (the copied .env, the setup script's output).
 */
describe.runIf(chromiumAvailable)("new thread: worktree or local (Chromium, real API)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B14: a worktree by default, with its setup shown on the thread; `local` works in the project's folder", async () => {
    const { stack, page } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const workspace = stack.providers.workspace;
    writeFileSync(path.join(workspace, ".env"), "API_URL=http://127.0.0.1:9\n");
    const { projectId } = await client.project.create.mutate({
      name: "Worktrees",
      workspaceRoot: workspace,
    });

    // The project's settings, from its page: a setup script for every new worktree.
    await page.goto(stack.web.url);
    await page.getByRole("link", { name: "New thread in Worktrees" }).first().click();
    await page.getByText("Project settings: thread workspaces").click();
    await page
      .getByLabel(/Setup script, run once in each new worktree/)
      .fill('echo "installing on port $PORT"');
    expect(await page.getByLabel(/Files copied into each new worktree/).inputValue()).toBe(".env*");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => text(page.locator(".project-settings"))).toContain("Saved.");
    const { projects } = await client.project.list.query();
    expect(projects.find((p) => p.id === projectId)?.settings).toMatchObject({
      threadWorkspace: "worktree",
      setupScript: 'echo "installing on port $PORT"',
      copyFiles: [".env*"],
    });
    const ownWorktree = page.getByRole("radio", { name: /Its own worktree/ });
    const projectFolder = page.getByRole("radio", { name: /The project's folder itself/ });
    await expect.poll(() => ownWorktree.isChecked()).toBe(true);
    expect(await projectFolder.isChecked()).toBe(false);
    await saveScreenshot(page, "new-thread-workspace-choice");
    await page.getByLabel("Title").fill("In a worktree");
    await page.getByRole("button", { name: "Create thread" }).click();
    await page.waitForURL(/\/threads\/thr_/);
    const worktreeThread = threadIdOf(page);

    const { thread } = await client.thread.detail.query({ threadId: worktreeThread });
    expect(thread.worktreePath).toBeTruthy();
    const port = thread.port!;
    expect(readFileSync(path.join(thread.worktreePath!, ".env"), "utf8")).toContain("API_URL");
    const header = page.locator(".thread-header");
    await expect.poll(() => text(header)).toContain(`PORT ${port}`);
    await expect.poll(() => text(header)).toContain("own worktree");
    const setup = page.locator(".workspace-setup");
    await expect
      .poll(() => setup.getAttribute("data-setup"), { timeout: 30_000 })
      .toBe("succeeded");
    expect(await text(setup)).toContain("Copied .env.");
    await setup.getByText("Setup output").click();
    await expect.poll(() => text(setup)).toContain(`installing on port ${port}`);
    await saveScreenshot(page, "thread-worktree-setup");

    await page.goto(stack.web.url);
    await page.getByRole("link", { name: "New thread in Worktrees" }).first().click();
    await page.getByRole("radio", { name: /The project's folder itself/ }).check();
    await page.getByLabel("Title").fill("In the folder");
    await page.getByRole("button", { name: "Create thread" }).click();
    await page.waitForURL((url) => /\/threads\/thr_/.test(url.pathname));
    await expect.poll(() => threadIdOf(page)).not.toBe(worktreeThread);
    const local = await client.thread.detail.query({ threadId: threadIdOf(page) });
    expect(local.thread.worktreePath).toBeNull();
    expect(await page.locator(".workspace-setup").count()).toBe(0);
    expect(existsSync(path.join(workspace, ".env"))).toBe(true);
  });
});
