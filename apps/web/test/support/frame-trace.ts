/**
 * Frame times from a Chromium performance trace (CDP `Tracing`, the timeline DevTools records):
 * for each interval between consecutive animation frames on the page's main thread, the time the
 * main thread spent running tasks in it (nested tasks counted once). A frame whose work fits in
 * 16 ms keeps 60 fps; the interval itself is pinned to the display's 16.7 ms and says nothing.
 */
export type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string };
};

const TASK_NAMES = new Set(["RunTask", "ThreadControllerImpl::RunTask"]);
const FRAME_NAMES = new Set(["FireAnimationFrame"]);

/** The renderer main thread that fired the most animation frames (the page under test). */
export function mainThread(events: readonly TraceEvent[]): { pid: number; tid: number } | null {
  const mains = new Set(
    events
      .filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const frames = new Map<string, number>();
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (FRAME_NAMES.has(e.name) && mains.has(key)) frames.set(key, (frames.get(key) ?? 0) + 1);
  }
  const best = [...frames.entries()].sort((a, b) => b[1] - a[1])[0];
  if (!best) return null;
  const [pid, tid] = best[0].split(":").map(Number) as [number, number];
  return { pid, tid };
}

/** Busy milliseconds of the main thread per frame interval, in order. */
export function frameTimes(events: readonly TraceEvent[]): number[] {
  const main = mainThread(events);
  if (main === null) return [];
  const on = (e: TraceEvent) => e.pid === main.pid && e.tid === main.tid;
  const frameStarts = [
    ...new Set(events.filter((e) => on(e) && FRAME_NAMES.has(e.name)).map((e) => e.ts)),
  ].sort((a, b) => a - b);
  // Union of task intervals: a task nested in another is already inside its parent.
  const tasks = events
    .filter((e) => on(e) && e.ph === "X" && TASK_NAMES.has(e.name) && (e.dur ?? 0) > 0)
    .map((e) => [e.ts, e.ts + (e.dur ?? 0)] as const)
    .sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of tasks) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const result: number[] = [];
  let cursor = 0;
  for (let i = 0; i + 1 < frameStarts.length; i += 1) {
    const from = frameStarts[i]!;
    const to = frameStarts[i + 1]!;
    while (cursor < merged.length && merged[cursor]![1] <= from) cursor += 1;
    let busy = 0;
    for (let j = cursor; j < merged.length && merged[j]![0] < to; j += 1) {
      busy += Math.min(to, merged[j]![1]) - Math.max(from, merged[j]![0]);
    }
    result.push(busy / 1000);
  }
  return result;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
