import type { Page } from "playwright-core";

/** The conversation's own runs read so far, as the page reports them (`data-runs-from/to`). */
export async function loadedRuns(page: Page): Promise<{ from: number; to: number }> {
  const scroller = page.locator(".conversation-scroll");
  return {
    from: Number(await scroller.getAttribute("data-runs-from")),
    to: Number(await scroller.getAttribute("data-runs-to")),
  };
}

/** Run numbers of the run headers in the DOM, in document order. */
export function renderedRunNumbers(page: Page): Promise<number[]> {
  return page
    .locator(".conversation-scroll .run-label")
    .evaluateAll((nodes) => nodes.map((node) => Number(/\d+/.exec(node.textContent ?? "")?.[0])));
}

export type PageBack = {
  /** Oldest run loaded before and after. */
  from: number;
  to: number;
  /** The item in view chosen as the anchor, and how far it moved on screen (px) as the page landed. */
  anchor: string;
  drift: number;
};

/**
 * Scrolls the conversation near its top (as a reader would), which loads the window of runs
 * before the oldest shown; returns how far the item that was at the top of the view moved once
 * that window was drawn. Runs in the page, so nothing lands between reading and scrolling.
 */
export function pageBack(page: Page, timeoutMs = 20_000): Promise<PageBack> {
  return page.evaluate(async (timeout) => {
    const scroller = document.querySelector(".conversation-scroll");
    if (!(scroller instanceof HTMLElement)) throw new Error("no conversation");
    const from = Number(scroller.dataset.runsFrom);
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    scroller.scrollTop = 40;
    // A virtualized stream draws the rows of the new place on the scroll event's frame.
    await frame();
    await frame();
    if (Number(scroller.dataset.runsFrom) !== from) throw new Error("landed before measured");
    const top = scroller.getBoundingClientRect().top;
    const anchorOf = () =>
      [...scroller.querySelectorAll<HTMLElement>("[data-item-id]")].find(
        (element) => element.getBoundingClientRect().top >= top,
      );
    const anchor = anchorOf();
    if (!anchor) throw new Error("no item in view");
    const id = anchor.dataset.itemId ?? "";
    const before = anchor.getBoundingClientRect().top;
    const deadline = performance.now() + timeout;
    while (Number(scroller.dataset.runsFrom) === from) {
      if (performance.now() > deadline) throw new Error(`no runs before ${from} loaded`);
      await frame();
    }
    // Two frames: the page's own layout effects and measurements have run.
    await frame();
    await frame();
    const after = scroller.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
    if (!after) throw new Error(`the anchor item ${id} left the DOM`);
    return {
      from: Number(scroller.dataset.runsFrom),
      to: from,
      anchor: id,
      drift: after.getBoundingClientRect().top - before,
    };
  }, timeoutMs);
}

/**
 * Walks the loaded conversation top to bottom a screen at a time; at each stop, the run numbers
 * of the headers in the DOM in order. The union covers every run drawn anywhere.
 */
export async function sweepRunNumbers(page: Page): Promise<number[][]> {
  return page.evaluate(async () => {
    const scroller = document.querySelector(".conversation-scroll");
    if (!(scroller instanceof HTMLElement)) throw new Error("no conversation");
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const stops: number[][] = [];
    // Far enough from the top that the sweep itself loads nothing older.
    scroller.scrollTop = 200;
    await frame();
    for (;;) {
      await frame();
      await frame();
      stops.push(
        [...scroller.querySelectorAll(".run-label")].map((node) =>
          Number(/\d+/.exec(node.textContent ?? "")?.[0]),
        ),
      );
      const end = scroller.scrollHeight - scroller.clientHeight;
      if (scroller.scrollTop >= end - 1) break;
      scroller.scrollTop = Math.min(end, scroller.scrollTop + scroller.clientHeight * 0.7);
    }
    return stops;
  });
}

export type ScrollFrames = { frames: number[]; longFrames: number[]; from: number };

/**
 * Scrolls up continuously (a fixed distance per frame, older windows loading on the way) until
 * the runs from `untilFrom` on are loaded or `durationMs` passed; returns the intervals between animation frames and the durations of Chromium's
 * long animation frames (> 50 ms, `long-animation-frame` entries) meanwhile.
 */
export function scrollUpFrames(page: Page, durationMs: number, pxPerFrame = 90, untilFrom = 0) {
  return page.evaluate(
    async ({ duration, step, until }) => {
      const scroller = document.querySelector(".conversation-scroll");
      if (!(scroller instanceof HTMLElement)) throw new Error("no conversation");
      const longFrames: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longFrames.push(entry.duration);
      });
      const supported = PerformanceObserver.supportedEntryTypes.includes("long-animation-frame");
      if (supported) observer.observe({ type: "long-animation-frame" });
      const frames: number[] = [];
      const started = performance.now();
      let last = started;
      await new Promise<void>((resolve) => {
        const tick = (now: number) => {
          frames.push(now - last);
          last = now;
          scroller.scrollTop -= step;
          const done = Number(scroller.dataset.runsFrom) <= until;
          if (!done && now - started < duration) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      observer.disconnect();
      return {
        frames: frames.slice(1),
        longFrames: supported ? longFrames : [],
        from: Number(scroller.dataset.runsFrom),
      };
    },
    { duration: durationMs, step: pxPerFrame, until: untilFrom },
  ) as Promise<ScrollFrames>;
}
