import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";

/** Issue 17 item 4 in the browser: rename a thread, archive it, undo, and the archived list. */
describe
  .runIf(chromiumAvailable)
  .sequential("thread rename and archive with undo (Chromium, real API)", () => {
    let workspace: string;
    let threadId = "";

    const e2e = useE2eStack();
    beforeAll(async () => {
      const { stack, page } = e2e;
      workspace = mkdtempSync(path.join(tmpdir(), "skein-settings-ws-"));
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const { projectId } = await client.project.create.mutate({
        name: "Settings",
        workspaceRoot: workspace,
      });
      ({ threadId } = await client.thread.create.mutate({ projectId, title: "Main thread" }));
      await page.goto(`${stack.web.url}/threads/${threadId}`);
    });
    afterAll(() => {
      if (workspace) rmSync(workspace, { recursive: true, force: true });
    });

    const row = () => e2e.page.locator(`.thread-row[data-thread-id="${threadId}"]`);
    const title = () => e2e.page.locator("h1.thread-title").textContent();

    it("renames the thread from its header; the sidebar follows", async () => {
      const { page } = e2e;
      await expect.poll(title).toBe("Main thread");
      await page.getByRole("button", { name: "Rename Main thread" }).click();
      await page.getByLabel("Thread title").fill("Parser fixes");
      await page.getByRole("button", { name: "Save" }).click();
      await expect.poll(title).toBe("Parser fixes");
      await expect.poll(() => row().locator(".thread-link").textContent()).toBe("Parser fixes");
      await saveScreenshot(page, "thread-renamed");
    });

    it("archives, then Undo in the toast brings the thread back", async () => {
      const { page } = e2e;
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("button", { name: "Archive thread" }).click();
      await expect.poll(() => row().count()).toBe(0);
      const toast = page.locator("[data-sonner-toast]", { hasText: "Archived “Parser fixes”" });
      await expect.poll(() => toast.count()).toBe(1);
      await saveScreenshot(page, "thread-archived-toast");
      await toast.getByRole("button", { name: "Undo" }).click();
      await expect.poll(() => row().count()).toBe(1);
      await expect.poll(() => page.getByRole("button", { name: "Archive thread" }).count()).toBe(1);
    });

    it("lists archived threads in the sidebar and unarchives from there", async () => {
      const { page } = e2e;
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("button", { name: "Archive thread" }).click();
      await expect.poll(() => row().count()).toBe(0);
      await page.getByRole("button", { name: /Archived/ }).click();
      const archivedRow = page.locator(`.archived-row[data-thread-id="${threadId}"]`);
      await expect.poll(() => archivedRow.count()).toBe(1);
      await saveScreenshot(page, "sidebar-archived-list");
      await page.getByRole("button", { name: "Unarchive Parser fixes" }).click();
      await expect.poll(() => row().count()).toBe(1);
      await expect.poll(() => archivedRow.count()).toBe(0);
    });
  });
