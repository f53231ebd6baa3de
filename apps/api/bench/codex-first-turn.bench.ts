/**
 * Issue 34 row new_thread_first_turn_ratio (B21): the first prompt on a new thread, through
 * Skein ÷ sent straight to a second `codex app-server`, interleaved in one run (the same
 * instant scripted-model turn; order shuffled each round, seeded).
 * - through Skein: sendMessage on a just-created thread → its RunFinished in the store (the
 *   provider thread is started on the way: `thread/start`, then `turn/start`);
 * - directly: `thread/start` then `turn/start` → `turn/completed` on a warm app-server.
 * It also prints where Skein's time goes (median of each phase, from the adapter's frames), the
 * profile item 1 of the issue starts from.
 */
import type { StoredEvent } from "@skein/db";
import { type RunId, threadStreamId } from "@skein/domain";
import { createCodexSkeinHarness } from "../test/support/codex-skein-harness.ts";
import { benchSize, ratioRow, writeBenchRows } from "./bench-rows.ts";
import { startDirectCodex } from "./direct-codex.ts";
import { startModelProcess } from "./model-process.ts";
import { median, pairedTurns } from "./paired-turns.ts";

const WARMUP = benchSize(3, 0);
const ROUNDS = benchSize(30, 1);
const TARGET = 1.15;
/** Pause after every turn, either side, so one turn's tail (rollout, checkpoint) is not charged to the next. */
const SETTLE_MS = 200;

/** Resolves a run's RunFinished from one live subscription of its thread. */
async function finished(events: AsyncIterable<StoredEvent>, runId: RunId): Promise<void> {
  for await (const event of events) {
    if (event.type === "RunFinished" && (event.data as { runId: string }).runId === runId) return;
  }
}

async function main() {
  /** Outgoing requests and turn/completed of the Skein turn being timed, by time. */
  let frames: { method: string; at: number }[] = [];
  // The fake model apart from Skein's event loop, as a real model service runs (model-process.ts).
  const model = await startModelProcess("fake-responses-process.ts");
  const h = await createCodexSkeinHarness({
    modelUrl: model.url,
    onFrame: (frame) => {
      const wanted =
        (frame.direction === "outgoing" && frame.messageKind === "request") ||
        frame.method === "turn/completed";
      if (wanted && frame.method) frames.push({ method: frame.method, at: performance.now() });
    },
  });
  const direct = await startDirectCodex(h);
  const phases = new Map<string, number[]>();
  const note = (phase: string, ms: number) => phases.set(phase, [...(phases.get(phase) ?? []), ms]);
  try {
    const directFirstTurn = async (text: string) => {
      const started = performance.now();
      await direct.turn(await direct.startThread(), text);
      return performance.now() - started;
    };
    const skeinFirstTurn = async (text: string, profile: boolean) => {
      const threadId = await h.createThread();
      const subscription = h.store.subscribe({
        afterSequence: await h.store.headSequence(),
        filter: { streamIds: [threadStreamId(threadId)] },
      });
      frames = [];
      const started = performance.now();
      const runId = await h.send(threadId, text);
      const settled = h.orchestrator.waitForRun(runId);
      await finished(subscription, runId);
      const ended = performance.now();
      subscription.close();
      if (profile) {
        // Each step from the one before: send → first request out, request → next request, …
        let last = started;
        for (const frame of frames) {
          note(`→ ${frame.method}`, frame.at - last);
          last = frame.at;
        }
        note("→ RunFinished committed", ended - last);
      }
      await settled;
      return ended - started;
    };

    const { skein, native } = await pairedTurns({
      warmup: WARMUP,
      rounds: ROUNDS,
      settleMs: SETTLE_MS,
      skein: skeinFirstTurn,
      direct: directFirstTurn,
    });
    const ratio = median(skein) / median(native);
    console.log(
      `first turn on a new thread: skein median ${median(skein).toFixed(1)} ms, direct median ` +
        `${median(native).toFixed(1)} ms, ratio ${ratio.toFixed(3)}; Skein's steps (median ms): ` +
        [...phases].map(([phase, ms]) => `${phase} ${median(ms).toFixed(1)}`).join(", "),
    );
    writeBenchRows("codex-first-turn.json", [
      ratioRow("new_thread_first_turn_ratio", ratio, TARGET),
    ]);
  } finally {
    await direct.close();
    await h.close();
    model.close();
  }
}

await main();
