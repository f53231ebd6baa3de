/**
 * Issue 29: ui_thread_switch_ms — the p95, over switches, of the time from a click on a long
 * thread's sidebar row (1,000 runs), while a small thread is open, to that thread's last item
 * painted in view. Measured in the page: the clock starts at the click event (performance.now()
 * in a capturing listener, so Playwright's own checks before the click do not count) and stops
 * in the task after the first frame in which the last item lies inside the conversation's
 * scroller (rAF, then a MessageChannel message: that frame has been painted by then, as in
 * ui.bench.ts's watchForPaint). After each switch the small thread is clicked again (not
 * measured for the row, only logged), so every measured switch leaves the same screen.
 * One page for the whole run: a switch is a client-side navigation, as for someone using it.
 */
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import type { Browser, Page } from "playwright-core";
import { percentile } from "../test/support/frame-trace.ts";

/** A thread in the sidebar, and the id of the item that ends its conversation. */
type Target = { threadId: string; lastItemId: string };

/** Pause between switches: lets the previous thread's trailing reads end, as a reader would. */
const SETTLE_MS = 300;
const SWITCH_TIMEOUT_MS = 60_000;

/**
 * In the page: resolves with the ms from the next click on a link to `href` to the frame after
 * the item `itemId` is in the conversation's view. Source text: tsx would add helpers the page
 * does not have.
 */
const WATCH = `window.__switchWatch = (href, itemId) => new Promise((resolve) => {
  let start = null;
  const onClick = (event) => {
    const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || link.getAttribute("href") !== href) return;
    start = performance.now();
    document.removeEventListener("click", onClick, true);
  };
  document.addEventListener("click", onClick, true);
  const selector = '[data-item-id="' + CSS.escape(itemId) + '"]';
  const inView = () => {
    const element = document.querySelector(selector);
    if (!element) return false;
    const box = element.getBoundingClientRect();
    const scroller = element.closest(".conversation-scroll");
    const view = scroller ? scroller.getBoundingClientRect() : { top: 0, bottom: innerHeight };
    return box.height > 0 && box.top < view.bottom && box.bottom > view.top;
  };
  const frame = () => {
    if (start === null || !inView()) return void requestAnimationFrame(frame);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - start);
    channel.port2.postMessage(0);
  };
  requestAnimationFrame(frame);
});`;

async function lastItemOf(apiUrl: string, threadId: string): Promise<Target> {
  const client = createSkeinClient<AppRouter>({ url: apiUrl });
  const detail = await client.thread.detail.query({ threadId });
  const lastItemId = (detail.visibleTurnItems ?? detail.turnItems).at(-1)?.id;
  if (!lastItemId) throw new Error(`thread ${threadId} has no items to wait for`);
  return { threadId, lastItemId };
}

/** Clicks the thread's sidebar link and resolves with the measured ms (see WATCH). */
async function switchTo(page: Page, to: Target): Promise<number> {
  const href = `/threads/${to.threadId}`;
  const measured = page.evaluate(
    `window.__switchWatch(${JSON.stringify(href)}, ${JSON.stringify(to.lastItemId)})`,
  );
  await page.locator(`.sidebar a.thread-link[href="${href}"]`).click();
  const ms = (await Promise.race([
    measured,
    new Promise((_, reject) =>
      setTimeout(
        () => reject(new Error(`switching to ${to.threadId}: its last item never painted`)),
        SWITCH_TIMEOUT_MS,
      ).unref(),
    ),
  ])) as number;
  await page.waitForTimeout(SETTLE_MS);
  return ms;
}

export async function measureThreadSwitch(
  browser: Browser,
  options: {
    webUrl: string;
    apiUrl: string;
    /** The thread open before each measured switch (a few runs). */
    smallThreadId: string;
    /** The thread switched to (1,000 runs). */
    largeThreadId: string;
    switches: number;
    log(line: string): void;
  },
): Promise<{ p95: number; samples: number[] }> {
  const small = await lastItemOf(options.apiUrl, options.smallThreadId);
  const large = await lastItemOf(options.apiUrl, options.largeThreadId);
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${options.webUrl}/threads/${small.threadId}`);
    await page.locator(`[data-item-id="${small.lastItemId}"]`).waitFor({ timeout: 180_000 });
    await page.evaluate(WATCH);
    // One round first: the browser has then loaded what the switch needs, as it would in use.
    // Logged, not counted: the first visit of the thread in this page (scripts loaded then).
    const first = await switchTo(page, large);
    await switchTo(page, small);
    const samples: number[] = [];
    const back: number[] = [];
    for (let i = 0; i < options.switches; i += 1) {
      samples.push(await switchTo(page, large));
      back.push(await switchTo(page, small));
    }
    const p95 = percentile(samples, 95);
    options.log(
      `thread switch to ${large.threadId}: ${samples.map((ms) => ms.toFixed(0)).join(", ")} ms; p95 ${p95.toFixed(1)} ms (first switch ${first.toFixed(0)} ms; back to the small thread: p95 ${percentile(back, 95).toFixed(1)} ms)`,
    );
    return { p95, samples };
  } finally {
    await context.close();
  }
}
