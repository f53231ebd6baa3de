import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "./support/browser.ts";
import { loadedRuns, pageBack, sweepRunNumbers } from "./support/conversation-scroll.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { type SeededHistory, seedHistory } from "./support/seed-history.ts";

const RUNS = 300;
/** Frames in a row with the conversation's height and place unchanged. */
const STILL_FRAMES = 10;

/** Resolves once the conversation has stopped moving (`STILL_FRAMES` frames alike). */
function settled(page: Page): Promise<void> {
  return page.evaluate(async (still) => {
    const scroller = document.querySelector(".conversation-scroll");
    if (!(scroller instanceof HTMLElement)) throw new Error("no conversation");
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = "";
    for (let alike = 0; alike < still; ) {
      await frame();
      const now = `${scroller.scrollHeight}:${scroller.scrollTop}`;
      alike = now === last ? alike + 1 : 0;
      last = now;
    }
  }, STILL_FRAMES);
}
/** The server's default detail window (apps/api read-models/detail-window.ts). */
const WINDOW = 50;

/**
 * Issue 29: a switch to a long thread from the sidebar draws the runs that fill the screen
 * first, then the live window replaces them; older windows then page back from the live
 * window's start, each run shown once.
 */
describe.runIf(chromiumAvailable)(
  "switching to a long thread from the sidebar (Chromium, real API)",
  () => {
    let seeded: SeededHistory;
    const e2e = useE2eStack({
      viewport: { width: 1280, height: 860 },
      seed: async (dataDir) => {
        seeded = await seedHistory(dataDir, { threads: 1, runs: RUNS });
      },
    });

    it("first window, then the live window, then older windows: every run once, in order", async () => {
      const { stack, page } = e2e;
      const threadId = seeded.longThreadId as string;
      await page.goto(stack.web.url);
      const link = page.locator(`.sidebar a.thread-link[href="/threads/${threadId}"]`);
      await link.waitFor();
      // Each frame, the runs the conversation holds (a client-side navigation keeps this window).
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { __windows: string[] }).__windows = seen;
        const frame = () => {
          const scroller = document.querySelector<HTMLElement>(".conversation-scroll");
          const shown = scroller
            ? `${scroller.dataset.runsFrom}..${scroller.dataset.runsTo}`
            : null;
          if (shown !== null && seen.at(-1) !== shown) seen.push(shown);
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
      await link.click();
      await page.getByText(`Run ${RUNS} answers.`).waitFor();
      await expect.poll(() => loadedRuns(page)).toEqual({ from: RUNS - WINDOW + 1, to: RUNS });
      const windows = await page.evaluate(
        () => (window as unknown as { __windows: string[] }).__windows,
      );
      const first = windows[0]?.split("..").map(Number) ?? [];
      // The first frame held fewer runs than the live window, ending at the latest run. (Should
      // the page take over 10 s to render, the click's watch is closed unadopted and the page
      // opens its own on the live window: the windows seen say so.)
      const seen = `windows seen: ${windows.join(", ")}`;
      expect(first[1], seen).toBe(RUNS);
      expect(first[0], seen).toBeGreaterThan(RUNS - WINDOW + 1);
      expect(windows.at(-1), seen).toBe(`${RUNS - WINDOW + 1}..${RUNS}`);

      // The live window's rows are measured over the next frames, the view kept at the bottom
      // meanwhile: a scroll up before that is taken back to the bottom (and asks for nothing).
      await settled(page);
      const back = await pageBack(page);
      expect(back.from).toBe(RUNS - 2 * WINDOW + 1);
      const stops = await sweepRunNumbers(page);
      const runs = [...new Set(stops.flat())].sort((a, b) => a - b);
      expect(runs[0]).toBe(RUNS - 2 * WINDOW + 1);
      expect(runs.at(-1)).toBe(RUNS);
      expect(runs).toHaveLength(2 * WINDOW);
      for (const stop of stops) expect(stop).toEqual(stop.map((_, i) => stop[0]! + i));
    });
  },
);
