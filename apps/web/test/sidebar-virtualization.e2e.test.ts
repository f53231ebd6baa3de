import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumAvailable, saveScreenshot, waitFor } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { percentile } from "./support/frame-trace.ts";
import { type SeededHistory, seedHistory } from "./support/seed-history.ts";

const THREADS = 100_000;
/** Rows in the DOM for a 860 px sidebar of 42 px rows: what is in view plus overscan. */
const MAX_DOM_ROWS = 80;

/** Frame intervals while the sidebar is scrolled continuously, measured inside the page. */
async function scrollFrames(page: Page, durationMs: number): Promise<number[]> {
  return page.evaluate(async (duration) => {
    const viewport = document.querySelector(".virtual-viewport");
    if (!(viewport instanceof HTMLElement)) throw new Error("no virtual viewport");
    const frames: number[] = [];
    const started = performance.now();
    let last = started;
    await new Promise<void>((resolve) => {
      const step = (now: number) => {
        frames.push(now - last);
        last = now;
        viewport.scrollTop += 480;
        if (now - started < duration) requestAnimationFrame(step);
        else resolve();
      };
      requestAnimationFrame(step);
    });
    return frames.slice(1);
  }, durationMs);
}

const rowsInList = async (page: Page) =>
  Number(await page.locator(".virtual-viewport").getAttribute("data-rows"));

/**
 * Issue 20 / B7: 100,000 threads, seeded through the store's append path before the API opens
 * them (tens of seconds, not the minutes 100,000 `thread.create` calls would take). The sidebar
 * shows the first page at once, pages the rest in, keeps its DOM to what is in view, and finds
 * any thread by title through the server's search.
 */
describe.runIf(chromiumAvailable)("sidebar with 100,000 threads (Chromium, real API)", () => {
  let seeded: SeededHistory;

  const e2e = useE2eStack({
    viewport: { width: 1280, height: 860 },
    // A build plus the seed on a busy shared machine can pass vitest's five minutes.
    startTimeoutMs: 600_000,
    seed: async (dataDir) => {
      seeded = await seedHistory(dataDir, { threads: THREADS });
    },
  });

  it("shows the newest threads at once and finds any of 100,000 by title", async () => {
    const { stack, page } = e2e;
    expect(seeded.threads).toBe(THREADS);
    const loadStarted = Date.now();
    await page.goto(stack.web.url);
    await page.getByRole("link", { name: "Thread 99999", exact: true }).waitFor();
    console.info(`[apps/web e2e] 100,000 threads: first rows in ${Date.now() - loadStarted} ms`);
    // Only what is in view (plus overscan) exists in the DOM.
    expect(await page.locator(".virtual-row").count()).toBeLessThan(MAX_DOM_ROWS);
    await saveScreenshot(page, "sidebar-100k-top");

    // An old thread, far from any page loaded yet: the server's search finds it.
    const searchStarted = Date.now();
    await page.getByLabel("Search threads").fill("Thread 04242");
    await page.getByRole("link", { name: "Thread 04242", exact: true }).waitFor();
    console.info(`[apps/web e2e] search over 100,000 threads: ${Date.now() - searchStarted} ms`);
    // The project row and the one match.
    await waitFor(async () => (await rowsInList(page)) === 2, "only the match listed");
    await saveScreenshot(page, "sidebar-100k-search");
    await page.getByRole("link", { name: "Thread 04242", exact: true }).click();
    await page.waitForURL(/\/threads\//);
    await page.getByLabel("Message").waitFor();
    await page.getByLabel("Search threads").fill("");
  });

  it("scrolls the windowed list and pages older threads in down to the oldest", async () => {
    const { page } = e2e;
    const viewport = page.locator(".virtual-viewport");
    const before = await rowsInList(page);
    const frames = await scrollFrames(page, 2_500);
    // Frame times are reported, not asserted (shared machines); see the report of issue 20.
    console.info(
      `[apps/web e2e] sidebar scroll: ${frames.length} frames, p50 ${percentile(frames, 50).toFixed(1)} ms, p95 ${percentile(frames, 95).toFixed(1)} ms, rows ${before} → ${await rowsInList(page)}`,
    );
    expect(frames.length).toBeGreaterThan(10);
    expect(await page.locator(".virtual-row").count()).toBeLessThan(MAX_DOM_ROWS);

    const pagingStarted = Date.now();
    await waitFor(
      async () => {
        await viewport.evaluate((el) => {
          el.scrollTop = el.scrollHeight;
        });
        return (await page.getByRole("link", { name: "Thread 00000", exact: true }).count()) > 0;
      },
      "the oldest thread at the bottom of the list",
      180_000,
    );
    console.info(
      `[apps/web e2e] all 100,000 threads paged in ${Date.now() - pagingStarted} ms after scrolling`,
    );
    expect(await rowsInList(page)).toBe(THREADS + 1);
    expect(await page.locator(".virtual-row").count()).toBeLessThan(MAX_DOM_ROWS);
    await saveScreenshot(page, "sidebar-100k-bottom");
  });

  it("works at a narrow width: the sidebar folds behind a toggle", async () => {
    const { stack, browser } = e2e;
    const narrow = await browser.newPage({ viewport: { width: 390, height: 760 } });
    await narrow.goto(stack.web.url);
    const toggle = narrow.getByRole("button", { name: "Threads" });
    await toggle.waitFor();
    expect(await narrow.locator(".sidebar").isVisible()).toBe(false);
    await toggle.click();
    await narrow.getByLabel("Search threads").fill("Thread 09999");
    await narrow.getByRole("link", { name: "Thread 09999", exact: true }).waitFor();
    await saveScreenshot(narrow, "narrow-sidebar");
    await narrow.getByRole("link", { name: "Thread 09999", exact: true }).click();
    await narrow.waitForURL(/\/threads\//);
    expect(await narrow.locator(".sidebar").isVisible()).toBe(false);
    await narrow.getByLabel("Message").waitFor();
    await saveScreenshot(narrow, "narrow-thread");
    await narrow.close();
  });
});
