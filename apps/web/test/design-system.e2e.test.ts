import { describe, expect, it } from "vitest";
import {
  execCommandReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { type AxeFinding, forEachTheme, seriousA11yViolations } from "./support/axe.ts";
import { chromiumAvailable, saveScreenshot, waitFor } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { openApprovals, sendMessage, text, threadIdOf } from "./support/ui.ts";

const WIDE = { width: 1400, height: 900 };
const NARROW = { width: 390, height: 844 };
// Each checked view reloads twice and runs axe twice: minutes on a loaded two-core machine.
const VIEW_TIMEOUT = 400_000;

/**
 * Issue 17 items 1, 7 and 8 in Chromium on the real stack: themes, focus, the command palette and
 * shortcuts, run progress, then every main view (home, project, thread, approvals) checked with
 * axe-core and photographed light and dark, wide and narrow.
 */
describe
  .runIf(chromiumAvailable)
  .sequential("design system (Chromium, real API, fake models)", () => {
    const e2e = useE2eStack({ viewport: WIDE });

    let projectId = "";
    let threadId = "";
    const findings: Record<string, AxeFinding[]> = {};

    /** axe in both themes, screenshots in both themes at both sizes. */
    async function checkView(name: string) {
      const { page } = e2e;
      await forEachTheme(page, async (theme) => {
        for (const [size, viewport] of [
          ["1400x900", WIDE],
          ["390x844", NARROW],
        ] as const) {
          await page.setViewportSize(viewport);
          await saveScreenshot(page, `ds-${name}-${theme}-${size}`);
          // Nothing may stick out sideways at either width (issue 17 item 8).
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow, `${name} ${theme} ${size} overflows`).toBeLessThanOrEqual(0);
        }
        await page.setViewportSize(WIDE);
        findings[`${name}-${theme}`] = await seriousA11yViolations(page, `ds-${name}-${theme}`);
      });
    }

    it("follows the system theme by default; the toggle switches and the choice persists", async () => {
      const { stack, browser, page } = e2e;
      const dark = await browser.newContext({ viewport: WIDE, colorScheme: "dark" });
      const darkPage = await dark.newPage();
      await darkPage.goto(stack.web.url);
      await darkPage.locator("html.dark").waitFor({ state: "attached" });
      await dark.close();

      await page.goto(stack.web.url);
      await page.locator("html.light").waitFor({ state: "attached" });
      const toggle = page.getByRole("button", { name: /^Theme: / });
      await expect.poll(() => toggle.getAttribute("data-theme-mode")).toBe("system");
      await toggle.click(); // system → light
      await toggle.click(); // light → dark
      await page.locator("html.dark").waitFor({ state: "attached" });
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe("rgb(17, 19, 22)");
      await page.reload();
      await page.locator("html.dark").waitFor({ state: "attached" });
      await expect.poll(() => toggle.getAttribute("data-theme-mode")).toBe("dark");
      await toggle.click(); // dark → system (light here)
      await page.locator("html.light").waitFor({ state: "attached" });
    });

    it("shows a visible focus ring on keyboard focus", async () => {
      const { page } = e2e;
      await page.getByLabel("Search threads").focus();
      await page.keyboard.press("Shift+Tab");
      const outline = await page.evaluate(() => {
        const active = document.activeElement as HTMLElement;
        const style = getComputedStyle(active);
        return { width: style.outlineWidth, style: style.outlineStyle };
      });
      expect(outline.style).toBe("solid");
      expect(Number.parseFloat(outline.width)).toBeGreaterThanOrEqual(2);
    });

    it(
      "home and project views pass axe in both themes",
      async () => {
        const { stack, page } = e2e;
        await page.getByLabel("Name", { exact: true }).fill("Design");
        await page.getByLabel("Workspace root (absolute path)").fill(stack.providers.workspace);
        await page.getByRole("button", { name: "Create project" }).click();
        await page.getByRole("link", { name: "New thread in Design" }).first().waitFor();
        await checkView("home");
        await page.getByRole("link", { name: "New thread in Design" }).first().click();
        await page.waitForURL(/\/projects\/[^/]+\/new/);
        projectId = decodeURIComponent(/\/projects\/([^/]+)\/new/.exec(page.url())![1]!);
        await checkView("project");
      },
      VIEW_TIMEOUT,
    );

    it(
      "a run shows a spinner and a ticking elapsed time, then its duration",
      async () => {
        const { stack, page } = e2e;
        await page.getByLabel("Title").fill("Design thread");
        await page.getByRole("button", { name: "Create thread" }).click();
        await page.waitForURL(/\/threads\/thr_/);
        threadId = threadIdOf(page);
        stack.providers.openai.enqueue(
          responsesSlowTextReply(["One ", "two ", "three ", "four ", "five ", "six."], 500),
        );
        await sendMessage(page, "count slowly");
        const progress = page.locator(".run-progress").first();
        await waitFor(
          async () => (await progress.getAttribute("data-live")) === "true",
          "a live run with a spinner",
          60_000,
        );
        expect(await progress.locator("svg.spin").count()).toBe(1);
        expect(await text(progress)).toMatch(/^\d+ s$/);
        await saveScreenshot(page, "ds-run-progress-live");
        await waitFor(
          async () => (await progress.getAttribute("data-live")) === null,
          "the run to end",
          60_000,
        );
        expect(await progress.locator("svg.spin").count()).toBe(0);
        expect(await text(progress)).toMatch(/^\d+ s$/);
        await checkView("thread");
      },
      VIEW_TIMEOUT,
    );

    it("the command palette opens with Ctrl+K, finds a thread and an action", async () => {
      const { page } = e2e;
      await page.keyboard.press("Control+k");
      const dialog = page.getByRole("dialog", { name: "Command palette" });
      await dialog.waitFor();
      const search = dialog.getByRole("combobox", { name: "Search commands and threads" });
      await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await dialog.getByRole("option", { name: /Fork from the latest run/ }).count()).toBe(
        1,
      );
      findings["palette-light"] = await seriousA11yViolations(page, "ds-palette");
      await saveScreenshot(page, "ds-palette");
      await search.fill("Projects");
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/");
      await page.keyboard.press("Control+k");
      await dialog.waitFor();
      await search.fill("Design thread");
      await dialog.getByRole("option", { name: "Design thread" }).waitFor();
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === `/threads/${threadId}`);
      expect(await dialog.count()).toBe(0);
    });

    it("shortcuts: fork, switch thread, new thread", async () => {
      const { page } = e2e;
      await page.getByLabel("Message").waitFor();
      await page.keyboard.press("Alt+Shift+F");
      await page.waitForURL(
        (url) => /\/threads\/thr_/.test(url.pathname) && !url.pathname.endsWith(threadId),
      );
      const forkId = threadIdOf(page);
      await expect
        .poll(() => text(page.locator(".thread-title")))
        .toBe("fork of Design thread at run 1");
      // Sidebar order: the source, then its fork nested under it. The shortcuts step through
      // the sidebar's rows, so wait until the fork's row is there (its shell arrives by stream).
      await page
        .getByRole("navigation", { name: "Projects and threads" })
        .locator(`a[href="/threads/${forkId}"]`)
        .waitFor();
      await page.keyboard.press("Alt+ArrowUp");
      await page.waitForURL((url) => url.pathname === `/threads/${threadId}`);
      await expect.poll(() => text(page.locator(".thread-title"))).toBe("Design thread");
      await page.keyboard.press("Alt+ArrowDown");
      await page.waitForURL((url) => url.pathname === `/threads/${forkId}`);
      await expect
        .poll(() => text(page.locator(".thread-title")))
        .toBe("fork of Design thread at run 1");
      await page.keyboard.press("Alt+Shift+N");
      await page.waitForURL((url) => url.pathname === `/projects/${projectId}/new`);
    });

    it(
      "approvals (with a pending command) passes axe in both themes",
      async () => {
        const { stack, page } = e2e;
        await page.goto(`${stack.web.url}/threads/${threadId}`);
        stack.providers.openai.enqueue(
          execCommandReply("echo DESIGN-OK"),
          responsesTextReply("The command ran."),
        );
        await sendMessage(page, "please run the command");
        await openApprovals(page);
        const accept = page.getByRole("button", { name: /^Accept: / }).first();
        await accept.waitFor({ timeout: 60_000 });
        await checkView("approvals");
        await page
          .getByRole("button", { name: /^Accept: / })
          .first()
          .click();
        await expect
          .poll(() => page.getByText("Nothing is waiting for you.").count(), { timeout: 30_000 })
          .toBe(1);
      },
      VIEW_TIMEOUT,
    );

    it("no serious or critical axe violations on any main view", () => {
      const failing = Object.entries(findings).filter(([, list]) => list.length > 0);
      expect(Object.keys(findings).length).toBeGreaterThanOrEqual(9);
      expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
    });
  });
