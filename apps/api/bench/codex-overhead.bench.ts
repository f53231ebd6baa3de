/**
 * Issue 4 row: codex_turn_overhead_ratio. The same instant scripted-model turn is timed two ways
 * on warm app-server processes, interleaved so machine noise hits both alike:
 * - through Skein: sendMessage → the run's RunFinished in the store (orchestrator, real SQLite
 *   store, raw log, real Codex binary);
 * - directly: `turn/start` → `turn/completed` over the app-server protocol with the adapter's
 *   JSON-RPC client on its own process and thread.
 * Both threads grow the same history, so the ratio also shows whether Skein's cost grows with it.
 */
import { createCodexSkeinHarness } from "../test/support/codex-skein-harness.ts";
import { benchSize, ratioRow, writeBenchRows } from "./bench-rows.ts";
import { startDirectCodex } from "./direct-codex.ts";
import { startModelProcess } from "./model-process.ts";
import { median, pairedTurns, skeinThreadTurns } from "./paired-turns.ts";

const WARMUP = benchSize(5, 0);
const ROUNDS = Number(process.env.CODEX_BENCH_ROUNDS ?? benchSize(60, 2));
/** Issue 34's acceptance (B21); issue 4 asked ≤ 1.25 of the same row. */
const TARGET = 1.15;
/**
 * Pause after every turn, either side. A finished run still has post-run work in Skein (the
 * workspace checkpoint, measured by its own bench) and Codex writes its rollout after
 * `turn/completed`; measuring a turn while the previous one's tail still holds a core (of two)
 * would charge that tail to whichever side happens to go next.
 */
const SETTLE_MS = 200;

async function main() {
  // Codex's own share of each Skein turn: its turn/start frame out → its turn/completed frame in.
  let protocolStart = 0;
  let protocolEnd = 0;
  // The fake model apart from Skein's event loop, as a real model service runs (model-process.ts).
  const model = await startModelProcess("fake-responses-process.ts");
  const h = await createCodexSkeinHarness({
    modelUrl: model.url,
    onFrame: (frame) => {
      if (frame.direction === "outgoing" && frame.method === "turn/start") {
        protocolStart = performance.now();
      } else if (frame.method === "turn/completed") protocolEnd = performance.now();
    },
  });
  const direct = await startDirectCodex(h);
  try {
    const directThread = await direct.startThread();
    const directTurn = async (text: string) => {
      const started = performance.now();
      await direct.turn(directThread, text);
      return performance.now() - started;
    };

    const threadId = await h.createThread();
    const added: number[] = [];
    const codexShare: number[] = [];
    const skeinSide = await skeinThreadTurns({
      store: h.store,
      threadId,
      send: (text) => h.send(threadId, text),
      waitForRun: (runId) => h.orchestrator.waitForRun(runId),
      onFinished: (elapsed, measured) => {
        if (!measured) return;
        codexShare.push(protocolEnd - protocolStart);
        added.push(elapsed - (protocolEnd - protocolStart));
      },
    });

    const { skein, native } = await pairedTurns({
      warmup: WARMUP,
      rounds: ROUNDS,
      settleMs: SETTLE_MS,
      skein: skeinSide.turn,
      direct: directTurn,
    });
    skeinSide.close();
    const ratio = median(skein) / median(native);
    const half = Math.floor(ROUNDS / 2);
    const early = median(skein.slice(0, half)) / median(native.slice(0, half));
    const late = median(skein.slice(half)) / median(native.slice(half));
    console.log(
      `skein median ${median(skein).toFixed(1)} ms, direct median ${median(native).toFixed(1)} ms, ` +
        `ratio ${ratio.toFixed(3)} (first half ${early.toFixed(3)}, second half ${late.toFixed(3)}); ` +
        `Skein's own time per turn (outside Codex's turn/start → turn/completed) median ` +
        `${median(added).toFixed(1)} ms; Codex's part of the Skein turn median ` +
        `${median(codexShare).toFixed(1)} ms (the direct turn is all Codex)`,
    );
    const rows = [ratioRow("codex_turn_overhead_ratio", ratio, TARGET)];
    writeBenchRows("codex.json", rows);
  } finally {
    await direct.close();
    await h.close();
    model.close();
  }
}

await main();
