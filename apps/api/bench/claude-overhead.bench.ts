/**
 * Issue 34 rows on Claude (B21): Skein on the real Claude Agent SDK and `claude` binary ÷ a direct
 * SDK session (no Skein) against the same fake Anthropic server, config dir and workspace, each
 * row's turns interleaved in one run (order shuffled each round, seeded):
 * - claude_new_thread_first_turn_ratio: Skein sendMessage on a just-created thread → its
 *   RunFinished ÷ a new SDK session's first prompt → its `result` (a new process either side);
 * - claude_turn_overhead_ratio: the same, warm, on one thread ÷ one live SDK session;
 * - claude_fork_first_reply_ratio: Skein forkThread of a FORK_RUNS-run thread (1,000 by default)
 *   + the fork's first message → RunFinished ÷ an SDK session forked (`forkSession`) from a
 *   FORK_RUNS-turn session + its first prompt → `result`.
 * Sizes: SKEIN_BENCH_CLAUDE_ROUNDS (timed pairs per row), SKEIN_BENCH_CLAUDE_FORK_RUNS.
 */
import type { StoredEvent } from "@skein/db";
import { directClaudeSession } from "@skein/adapters-claude/testing";
import type { RunId, ThreadId } from "@skein/domain";
import { createClaudeSkeinHarness } from "../test/support/claude-skein-harness.ts";
import { type BenchRow, benchSize, ratioRow, writeBenchRows } from "./bench-rows.ts";
import { startModelProcess } from "./model-process.ts";
import { median, pairedTurns, skeinThreadTurns, type TimedTurn } from "./paired-turns.ts";

const ROUNDS = Number(process.env.SKEIN_BENCH_CLAUDE_ROUNDS ?? benchSize(20, 1));
const FORK_RUNS = Number(process.env.SKEIN_BENCH_CLAUDE_FORK_RUNS ?? benchSize(1_000, 2));
const WARMUP = benchSize(2, 0);
const TARGET = 1.15;
/** Pause after every turn, either side, so one turn's tail (transcript write, checkpoint) is not charged to the next. */
const SETTLE_MS = 200;

/** Resolves once `runId`'s RunFinished shows up in `events` (a subscription opened before the send). */
async function finished(events: AsyncIterable<StoredEvent>, runId: RunId): Promise<void> {
  for await (const event of events) {
    if (event.type === "RunFinished" && (event.data as { runId: string }).runId === runId) return;
  }
}

async function main() {
  // The fake model apart from Skein's event loop, as a real model service runs (model-process.ts).
  const model = await startModelProcess("fake-messages-process.ts");
  const h = await createClaudeSkeinHarness({ modelUrl: model.url });
  const config = { configDir: h.claudeConfigDir, baseUrl: model.url, apiKey: "test" };
  const cwd = h.workspaceRoot;
  const rows: BenchRow[] = [];
  const row = async (name: string, skeinSide: TimedTurn, directSide: TimedTurn) => {
    const { skein, native } = await pairedTurns({
      warmup: WARMUP,
      rounds: ROUNDS,
      settleMs: SETTLE_MS,
      skein: skeinSide,
      direct: directSide,
    });
    const ratio = median(skein) / median(native);
    console.log(
      `${name}: skein median ${median(skein).toFixed(1)} ms, direct median ` +
        `${median(native).toFixed(1)} ms, ratio ${ratio.toFixed(3)} (${ROUNDS} pairs)`,
    );
    rows.push(ratioRow(name, ratio, TARGET));
  };
  /** Skein: `thread` makes the thread to send on (timed or not), then sendMessage → RunFinished. */
  const skeinTurn = async (thread: () => Promise<ThreadId>, text: string, timeThread: boolean) => {
    // Every thread's events: a fork's id is not known before the fork is made.
    const subscription = h.store.subscribe({ afterSequence: await h.store.headSequence() });
    let started = performance.now();
    const threadId = await thread();
    if (!timeThread) started = performance.now();
    const { runId } = await h.orchestrator.sendMessage({ threadId, text });
    const settled = h.orchestrator.waitForRun(runId);
    await finished(subscription, runId);
    const elapsed = performance.now() - started;
    subscription.close();
    await settled;
    return elapsed;
  };
  const directTurn = async (forkFrom: string | undefined, text: string) => {
    const started = performance.now();
    const session = directClaudeSession(config, cwd, forkFrom ? { forkFrom } : {});
    await session.turn(text);
    const elapsed = performance.now() - started;
    await session.close();
    return elapsed;
  };
  try {
    await row(
      "claude_new_thread_first_turn_ratio",
      (text) => skeinTurn(() => h.createThread(), text, false),
      (text) => directTurn(undefined, text),
    );

    const warmThread = await h.createThread();
    const warmSession = directClaudeSession(config, cwd);
    const warmSkein = await skeinThreadTurns({
      store: h.store,
      threadId: warmThread,
      send: async (text) =>
        (await h.orchestrator.sendMessage({ threadId: warmThread, text })).runId,
      waitForRun: (runId) => h.orchestrator.waitForRun(runId),
    });
    await row("claude_turn_overhead_ratio", warmSkein.turn, async (text) => {
      const started = performance.now();
      await warmSession.turn(text);
      return performance.now() - started;
    });
    warmSkein.close();
    await warmSession.close();

    // The fork sources, built side by side (not timed): a live SDK session of FORK_RUNS turns,
    // closed before forking as a finished conversation would be.
    const skeinSource = await h.createThread();
    const directSource = directClaudeSession(config, cwd);
    await Promise.all([
      (async () => {
        for (let i = 0; i < FORK_RUNS; i += 1) await h.send(skeinSource, `history ${i}`);
      })(),
      (async () => {
        for (let i = 0; i < FORK_RUNS; i += 1) await directSource.turn(`history ${i}`);
      })(),
    ]);
    await directSource.close();
    const runs = (await h.thread(skeinSource)).runs.size;
    if (runs !== FORK_RUNS) throw new Error(`the Skein source has ${runs} runs, not ${FORK_RUNS}`);
    await row(
      "claude_fork_first_reply_ratio",
      (text) =>
        skeinTurn(
          async () => (await h.orchestrator.forkThread({ threadId: skeinSource })).threadId,
          text,
          true,
        ),
      (text) => directTurn(directSource.sessionId, text),
    );
    writeBenchRows("claude-overhead.json", rows);
  } finally {
    await h.close();
    model.close();
  }
}

await main();
