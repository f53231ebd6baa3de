// `pnpm --filter @skein/web bench` runs to the end on a small thread (SKEIN_BENCH_SMOKE=1), so a
// UI bench that crashes fails CI instead of the next `pnpm bench`. The smoke's figures mean
// nothing: the test checks that the bench finishes and writes the rows it should, each measured.
import { fileURLToPath } from "node:url";
import { measuredRowNames } from "@skein/test-config/bench-smoke";
import { expect, it } from "vitest";

const PACKAGE_DIR = fileURLToPath(new URL("..", import.meta.url));

it("the UI bench runs to the end and writes measured rows", async () => {
  const names = await measuredRowNames(PACKAGE_DIR, "bench/ui.bench.ts", "web-ui.json");
  expect(names).toEqual([
    "ui_first_paint_ms",
    "ui_stream_frame_ms",
    "ui_scroll_frame_ms",
    "ui_sidebar_search_ms",
    "ui_thread_switch_ms",
  ]);
}, 300_000);
