/**
 * Issue 29: ui_sidebar_search_ms — the p95, over queries, of the time from the search box's input
 * event to the row it looks for painted, in a sidebar of 100,000 threads (every tenth with a run
 * whose message names its "module NNNNN"). Half the queries are titles ("Thread 04242"), half a
 * word said in a message and in no title ("module 04240"), which only the server's message
 * search finds. The threads are seeded through the store's append path into a second API and
 * web server, so the other UI rows keep their own, small history.
 */
import type { Browser, Page } from "playwright-core";
import { percentile } from "../test/support/frame-trace.ts";
import { startWeb } from "../test/support/processes.ts";
import { seedHistory } from "../test/support/seed-history.ts";
import { startUiBenchApi } from "./ui-stack.ts";

const MESSAGES_EVERY = 10;
const pad = (n: number) => String(n).padStart(5, "0");

/**
 * In the page: resolves with the ms from the next input event on the search box to the frame
 * after a thread link named `name` is in the sidebar. Source text: tsx would add helpers the
 * page does not have.
 */
const WATCH = `window.__searchWatch = (name) => new Promise((resolve) => {
  const input = document.querySelector('input[aria-label="Search threads"]');
  let start = null;
  input.addEventListener("input", () => { start = performance.now(); }, { once: true, capture: true });
  const frame = () => {
    const links = start === null ? [] : document.querySelectorAll(".sidebar a.thread-link");
    if (![...links].some((a) => a.textContent === name)) return void requestAnimationFrame(frame);
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now() - start);
    channel.port2.postMessage(0);
  };
  requestAnimationFrame(frame);
});`;

async function searchOnce(page: Page, query: string, expected: string): Promise<number> {
  const search = page.getByLabel("Search threads");
  await search.fill("");
  await page.waitForTimeout(50);
  const measured = page.evaluate(`window.__searchWatch(${JSON.stringify(expected)})`);
  await search.fill(query);
  return (await measured) as number;
}

export async function measureSidebarSearch(
  browser: Browser,
  options: { threads: number; queries: number; webPort: number; log(line: string): void },
): Promise<{ p95: number; samples: number[] }> {
  const webOrigin = `http://127.0.0.1:${options.webPort}`;
  const api = await startUiBenchApi({
    webOrigin,
    seed: async (dataDir) => {
      await seedHistory(dataDir, { threads: options.threads, messagesEvery: MESSAGES_EVERY });
    },
  });
  const web = await startWeb({ port: options.webPort, apiUrl: api.url, mode: "start" }).catch(
    async (error: unknown) => {
      await api.close();
      throw error;
    },
  );
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(web.url);
    await page.getByRole("link", { name: `Thread ${pad(options.threads - 1)}` }).waitFor({
      timeout: 180_000,
    });
    await page.evaluate(WATCH);
    const samples: number[] = [];
    // Threads spread over the whole history, none in the first screen of rows.
    const step = Math.max(MESSAGES_EVERY, Math.floor(options.threads / options.queries));
    for (let i = 0; i < options.queries; i += 1) {
      const spot = Math.min(options.threads - 100, i * step);
      const n = spot - (spot % MESSAGES_EVERY);
      const byMessage = i % 2 === 1;
      const query = byMessage ? `module ${pad(n)}` : `Thread ${pad(n)}`;
      samples.push(await searchOnce(page, query, `Thread ${pad(n)}`));
    }
    const p95 = percentile(samples, 95);
    options.log(
      `sidebar search over ${options.threads} threads: ${samples.map((ms) => ms.toFixed(0)).join(", ")} ms; p95 ${p95.toFixed(1)} ms`,
    );
    return { p95, samples };
  } finally {
    await context.close();
    await web.stop();
    await api.close();
  }
}
