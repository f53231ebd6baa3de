/**
 * handoff_build_ms: median time to build the full-thread handoff of a 1,000-run thread at the
 * default 16k-token budget. Writes its row for the root bench runner; never asserts.
 */
import { buildHandoff } from "../src/index.ts";
import { runs, turnItemsFor } from "../src/test-support/fixtures.ts";
import { benchSize, writeRows } from "./smoke.ts";

const TARGET_MS = 200;
const WARMUP = benchSize(5, 1);
const SAMPLES = benchSize(31, 3);

const thread = runs({ from: 1, to: 1000, provider: "codex", providerThreadId: "pth_A" });
// Roughly a real session: a paragraph from the user, a longer reply, a few commands and edits.
const items = turnItemsFor(thread, {
  userChars: 400,
  assistantChars: 1_500,
  commands: 3,
  files: 2,
});

const build = () =>
  buildHandoff({
    strategy: "full_thread_summary",
    transfer: {
      id: "ctx_bench",
      type: "provider_handoff",
      sourceThreadId: "thr_main",
      targetThreadId: "thr_main",
    },
    selection: [{ threadId: "thr_main", ordinals: thread.map((run) => run.ordinal) }],
    runs: thread,
    turnItems: items,
    targetProvider: "claude",
    newMessage: "Continue from here.",
  });

for (let i = 0; i < WARMUP; i++) build();
const samples: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const start = performance.now();
  build();
  samples.push(performance.now() - start);
}
samples.sort((a, b) => a - b);
const median = samples[Math.floor(samples.length / 2)] ?? Number.NaN;
const value = Math.round(median * 100) / 100;
const rows = [
  { name: "handoff_build_ms", value, unit: "ms", target: TARGET_MS, pass: value <= TARGET_MS },
];

writeRows("transfer.json", rows);
