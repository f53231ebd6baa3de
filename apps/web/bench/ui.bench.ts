/**
 * Issue 17 rows, measured in Chromium on the production build against the real API:
 * - ui_first_paint_ms: open a thread of 1,000 runs (a fresh navigation to its page) → its last
 *   item painted in view; from navigation start on the page's performance timeline, median of 5.
 * - ui_stream_frame_ms: p95 main-thread time per frame while a reply streams into that thread,
 *   from a Chromium performance trace (test/support/frame-trace.ts).
 * - ui_scroll_frame_ms (issue 20): the same p95 while the reader scrolls that thread back
 *   continuously, older windows of runs loading on the way (test/support/conversation-scroll.ts).
 * - ui_sidebar_search_ms (issue 29): p95 from typing a search to the row found painted, in a
 *   sidebar of 100,000 threads, by title and by a word of a message (bench/sidebar-search.ts).
 * - ui_thread_switch_ms (issue 29): p95 over 20 switches from a click on the 1,000-run thread in
 *   the sidebar, while a small thread is open, to its last item painted (bench/thread-switch.ts).
 * Writes bench/.rows/web-ui.json at the repo root for `pnpm bench`.
 *
 * SKEIN_BENCH_UI_ONLY=first_paint,stream,scroll,sidebar,switch (any of them, comma-separated)
 * runs only those parts (nothing is seeded for a part not run: `sidebar` has its own API and web
 * server) and prints their rows without writing web-ui.json: a partial run must not stand in for
 * the rows `pnpm bench` collects.
 */
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { writeFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { type BenchRow, benchSize, writeBenchRows } from "../../api/bench/bench-rows.ts";
import { launchBrowser, waitFor } from "../test/support/browser.ts";
import { ensureProductionBuild } from "../test/support/build.ts";
import { scrollUpFrames } from "../test/support/conversation-scroll.ts";
import { frameTimes, percentile, type TraceEvent } from "../test/support/frame-trace.ts";
import { freePort, startWeb } from "../test/support/processes.ts";
import { measureSidebarSearch } from "./sidebar-search.ts";
import { measureThreadSwitch } from "./thread-switch.ts";
import { startUiBenchApi, type UiBenchApi, type UiBenchThreadId } from "./ui-stack.ts";

const RUNS = Number(process.env.SKEIN_BENCH_UI_RUNS ?? benchSize(1_000, 100));
const OPENS = benchSize(5, 1);
const SEARCH_THREADS = benchSize(100_000, 300);
const SEARCHES = benchSize(30, 4);
const SWITCHES = benchSize(20, 3);
const PARTS = ["first_paint", "stream", "scroll", "sidebar", "switch"] as const;
type Part = (typeof PARTS)[number];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const log = (line: string) => console.error(`[ui bench] ${line}`);

/**
 * In the page from its first byte: each frame, is the item with this id in the DOM and in view?
 * Plain source text, not a compiled function: tsx would add helpers the page does not have.
 */
function watchForPaint(itemId: string): string {
  return `(() => {
    const selector = '[data-item-id="' + CSS.escape(${JSON.stringify(itemId)}) + '"]';
    const inView = () => {
      const element = document.querySelector(selector);
      if (!element) return false;
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top < innerHeight && box.bottom > 0;
    };
    const frame = () => {
      if (!inView()) return void requestAnimationFrame(frame);
      // The frame that laid it out is painted once a task after it runs.
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        performance.mark("skein:last-item-painted");
        window.__painted = performance.now();
      };
      channel.port2.postMessage(0);
    };
    requestAnimationFrame(frame);
  })();`;
}

async function firstPaint(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  return waitFor(
    () => page.evaluate(() => (window as unknown as { __painted?: number }).__painted),
    "the thread's last item painted",
    180_000,
  );
}

async function traceWhile(page: Page, work: () => Promise<void>): Promise<TraceEvent[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on("Tracing.dataCollected", ({ value }) =>
    events.push(...(value as unknown as TraceEvent[])),
  );
  await cdp.send("Tracing.start", {
    transferMode: "ReportEvents",
    traceConfig: {
      includedCategories: [
        "toplevel",
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        ...(process.env.SKEIN_UI_TRACE_JS ? ["disabled-by-default-v8.cpu_profiler", "v8"] : []),
      ],
    },
  });
  // Keep a frame requested every vsync, so idle frames count too (as they would on screen).
  await page.evaluate(`(() => {
    window.__frames = true;
    const loop = () => window.__frames && requestAnimationFrame(loop);
    requestAnimationFrame(loop);
  })()`);
  try {
    await work();
  } finally {
    await page.evaluate(() => {
      (window as unknown as { __frames?: boolean }).__frames = false;
    });
    const complete = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  return events;
}

/** The parts SKEIN_BENCH_UI_ONLY names (all when unset); an unknown name is an error, not a skip. */
function partsToRun(value: string | undefined): ReadonlySet<Part> {
  if (value === undefined) return new Set(PARTS);
  const names = value.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `SKEIN_BENCH_UI_ONLY: unknown part ${unknown.join(", ")} (parts: ${PARTS.join(", ")})`,
    );
  return new Set(names as Part[]);
}

const msRow = (name: string, value: number, target: number, digits = 1): BenchRow => ({
  name,
  value: +value.toFixed(digits),
  unit: "ms",
  target,
  pass: value <= target,
});

async function main() {
  const parts = partsToRun(process.env.SKEIN_BENCH_UI_ONLY);
  const build = await ensureProductionBuild();
  log(build.built ? `UI built in ${build.ms} ms` : build.reason);
  const rows = new Map<Part, BenchRow>();
  const browser = await launchBrowser();
  try {
    if (
      parts.has("first_paint") ||
      parts.has("stream") ||
      parts.has("scroll") ||
      parts.has("switch")
    )
      await measureLongThread(browser, parts, rows);
    if (parts.has("sidebar")) {
      const search = await measureSidebarSearch(browser, {
        threads: SEARCH_THREADS,
        queries: SEARCHES,
        webPort: await freePort(),
        log,
      });
      rows.set("sidebar", msRow("ui_sidebar_search_ms", search.p95, 100));
    }
  } finally {
    await browser.close();
  }
  const measured = PARTS.flatMap((part) => rows.get(part) ?? []);
  if (process.env.SKEIN_BENCH_UI_ONLY === undefined) writeBenchRows("web-ui.json", measured);
  else
    for (const row of measured)
      console.log(`${row.name} ${row.value} ${row.unit} (target ${row.target}; not written)`);
}

/** The parts measured on one API and web server holding the 1,000-run thread. */
async function measureLongThread(
  browser: Browser,
  parts: ReadonlySet<Part>,
  rows: Map<Part, BenchRow>,
): Promise<void> {
  const webPort = await freePort();
  const webOrigin = `http://127.0.0.1:${webPort}`;
  const api = await startUiBenchApi({ webOrigin });
  const web = await startWeb({ port: webPort, apiUrl: api.url, mode: "start" }).catch(
    async (error: unknown) => {
      await api.close();
      throw error;
    },
  );
  try {
    const seeded = Date.now();
    const threadId = await api.seedThread(`${RUNS} runs`, RUNS);
    log(`seeded ${RUNS} runs in ${Date.now() - seeded} ms`);
    if (parts.has("first_paint") || parts.has("stream") || parts.has("scroll"))
      await measureOnePage(browser, api, `${web.url}/threads/${threadId}`, threadId, parts, rows);
    if (parts.has("switch")) {
      const small = await api.seedThread("A few runs", 3);
      const switched = await measureThreadSwitch(browser, {
        webUrl: web.url,
        apiUrl: api.url,
        smallThreadId: small,
        largeThreadId: threadId,
        switches: SWITCHES,
        log,
      });
      rows.set("switch", { ...msRow("ui_thread_switch_ms", switched.p95, 150), target: "<= 150" });
    }
  } finally {
    await web.stop();
    await api.close();
  }
}

/** First paint, then streaming and scrolling in the same page, as a reader would. */
async function measureOnePage(
  browser: Browser,
  api: UiBenchApi,
  url: string,
  threadId: UiBenchThreadId,
  parts: ReadonlySet<Part>,
  rows: Map<Part, BenchRow>,
): Promise<void> {
  const client = createSkeinClient<AppRouter>({ url: api.url });
  const detail = await client.thread.detail.query({ threadId });
  const items = detail.visibleTurnItems ?? detail.turnItems;
  const lastItemId = items.at(-1)?.id;
  if (!lastItemId) throw new Error("the seeded thread has no items");
  log(`${items.length} items in the first window, ${detail.runs.length} runs`);

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript({ content: watchForPaint(lastItemId) });
  const page = await context.newPage();
  // One visit first: the browser caches the app's scripts as it would for someone using it.
  await firstPaint(page, url);
  if (parts.has("first_paint")) {
    const opens: number[] = [];
    for (let i = 0; i < OPENS; i += 1) opens.push(await firstPaint(page, url));
    log(`first paint of the last item: ${opens.map((ms) => ms.toFixed(0)).join(", ")} ms`);
    rows.set("first_paint", msRow("ui_first_paint_ms", median(opens), 1000, 0));
  }

  if (parts.has("stream")) {
    const reply = Array.from(
      { length: 60 },
      (_, i) => `Line ${i}: the \`stream_frame\` check keeps **each frame** short.`,
    ).join("\n\n");
    const events = await traceWhile(page, async () => {
      const done = await api.streamReply(threadId, reply, 240, 12);
      await done();
      await waitFor(
        () => page.getByText("Line 59: the", { exact: false }).count(),
        "the streamed reply on screen",
      );
    });
    // SKEIN_UI_TRACE=file: the streaming trace, for DevTools' Performance panel.
    if (process.env.SKEIN_UI_TRACE)
      writeFileSync(process.env.SKEIN_UI_TRACE, JSON.stringify(events));
    const frames = frameTimes(events);
    if (frames.length < 30) throw new Error(`only ${frames.length} frames in the trace`);
    const p95 = percentile(frames, 95);
    log(
      `streaming: ${frames.length} frames, p50 ${percentile(frames, 50).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${Math.max(...frames).toFixed(1)} ms`,
    );
    rows.set("stream", msRow("ui_stream_frame_ms", p95, 16));
  }

  if (parts.has("scroll")) {
    // tsx (unlike vitest) wraps named functions in an `__name` helper the page does not have.
    await page.evaluate("globalThis.__name = (fn) => fn");
    let runsFrom = 0;
    const scrollFrames = frameTimes(
      await traceWhile(page, async () => {
        ({ from: runsFrom } = await scrollUpFrames(page, 5_000, 200));
      }),
    );
    if (scrollFrames.length < 30) throw new Error(`only ${scrollFrames.length} scroll frames`);
    const scrollP95 = percentile(scrollFrames, 95);
    log(
      `scrolling back to run ${runsFrom}: ${scrollFrames.length} frames, p50 ${percentile(scrollFrames, 50).toFixed(1)} ms, p95 ${scrollP95.toFixed(1)} ms, max ${Math.max(...scrollFrames).toFixed(1)} ms`,
    );
    rows.set("scroll", msRow("ui_scroll_frame_ms", scrollP95, 16));
  }
  await context.close();
}

await main();
