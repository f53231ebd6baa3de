/**
 * Issue 4 row: codex_turn_overhead_ratio. The same instant scripted-model turn is timed two ways
 * on warm app-server processes, interleaved so machine noise hits both alike:
 * - through Skein: sendMessage → the run's RunFinished in the store (orchestrator, real SQLite
 *   store, raw log, real Codex binary);
 * - directly: `turn/start` → `turn/completed` over the app-server protocol with the adapter's
 *   JSON-RPC client on its own process and thread.
 * Both threads grow the same history, so the ratio also shows whether Skein's cost grows with it.
 */
import {
  CodexAppServerClient,
  resolveCodexConfig,
  runtimePolicy,
} from "@skein/adapters-codex/testing";
import type { StoredEvent } from "@skein/db";
import { type RunId, type ThreadId, threadStreamId } from "@skein/domain";
import { DELEGATE_TOOL } from "../src/orchestrator/index.ts";
import { createCodexSkeinHarness } from "../test/support/codex-skein-harness.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";

const WARMUP = benchSize(5, 1);
const ROUNDS = Number(process.env.CODEX_BENCH_ROUNDS ?? benchSize(60, 2));
const TARGET = 1.25;
/**
 * Pause after every turn, either side. A finished run still has post-run work in Skein (the
 * workspace checkpoint, measured by its own bench) and Codex writes its rollout after
 * `turn/completed`; measuring a turn while the previous one's tail still holds a core (of two)
 * would charge that tail to whichever side happens to go next.
 */
const SETTLE_MS = 200;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves per run when its RunFinished is committed, from one live subscription. */
function finishedRuns(events: AsyncIterable<StoredEvent>) {
  const waiters = new Map<string, () => void>();
  void (async () => {
    for await (const event of events) {
      if (event.type !== "RunFinished") continue;
      const runId = (event.data as { runId: string }).runId;
      waiters.get(runId)?.();
      waiters.delete(runId);
    }
  })();
  return (runId: RunId) => new Promise<void>((resolve) => waiters.set(runId, resolve));
}

async function main() {
  // Codex's own share of each Skein turn: its turn/start frame out → its turn/completed frame in.
  let protocolStart = 0;
  let protocolEnd = 0;
  const h = await createCodexSkeinHarness({
    onFrame: (frame) => {
      if (frame.direction === "outgoing" && frame.method === "turn/start") {
        protocolStart = performance.now();
      } else if (frame.method === "turn/completed") protocolEnd = performance.now();
    },
  });
  const direct = await CodexAppServerClient.start({
    config: resolveCodexConfig({ codexHome: h.codexHome, env: { RUST_LOG: "error" } }),
    providerSessionId: "pss_bench_direct",
    cwd: h.workspace,
  });
  // Turn ids seen completing; a waiter registered after the fact finds its turn here.
  const completedIds = new Set<string>();
  const waiters = new Map<string, () => void>();
  direct.onNotification((n) => {
    if (n.method !== "turn/completed") return;
    completedIds.add(n.params.turn.id);
    waiters.get(n.params.turn.id)?.();
  });
  try {
    // The same requests Skein's adapter sends for a default (approval-required) thread: its
    // policy on thread/start and again on every turn/start, and the delegate tool.
    const policy = runtimePolicy("approval-required");
    const { thread } = await direct.request("thread/start", {
      cwd: h.workspace,
      approvalPolicy: policy.approvalPolicy,
      sandbox: policy.sandbox,
      dynamicTools: [
        {
          type: "function",
          name: DELEGATE_TOOL.name,
          description: DELEGATE_TOOL.description,
          inputSchema: JSON.parse(JSON.stringify(DELEGATE_TOOL.inputSchema)),
        },
      ],
    });
    const directTurn = async (text: string) => {
      const started = performance.now();
      const { turn } = await direct.request("turn/start", {
        threadId: thread.id,
        input: [{ type: "text", text, text_elements: [] }],
        approvalPolicy: policy.approvalPolicy,
        sandboxPolicy: policy.sandboxPolicy,
      });
      if (!completedIds.has(turn.id)) {
        await new Promise<void>((resolve) => waiters.set(turn.id, resolve));
        waiters.delete(turn.id);
      }
      const elapsed = performance.now() - started;
      await sleep(SETTLE_MS);
      return elapsed;
    };

    const threadId: ThreadId = await h.createThread();
    const subscription = h.store.subscribe({
      afterSequence: await h.store.headSequence(),
      filter: { streamIds: [threadStreamId(threadId)] },
    });
    const finished = finishedRuns(subscription);
    const added: number[] = [];
    const codexShare: number[] = [];
    const skeinTurn = async (text: string) => {
      const started = performance.now();
      const runId = await h.send(threadId, text);
      // Asked while the run is in flight, so it resolves only once the runner is done with it,
      // post-run work included (asked after RunFinished it would return at once).
      const settled = h.orchestrator.waitForRun(runId);
      await finished(runId);
      const elapsed = performance.now() - started;
      codexShare.push(protocolEnd - protocolStart);
      added.push(elapsed - (protocolEnd - protocolStart));
      await settled;
      await sleep(SETTLE_MS);
      return elapsed;
    };

    for (let i = 0; i < WARMUP; i += 1) {
      await directTurn(`warm ${i}`);
      await skeinTurn(`warm ${i}`);
    }
    added.length = 0;
    codexShare.length = 0;
    const skein: number[] = [];
    const native: number[] = [];
    // Which side goes first is shuffled (seeded, so runs are comparable): a fixed alternation puts
    // each side's turns back to back at every other round boundary, which skews one side.
    let seed = 0x5eed;
    const coin = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed < 2 ** 30;
    };
    for (let i = 0; i < ROUNDS; i += 1) {
      if (coin()) {
        skein.push(await skeinTurn(`message ${i}`));
        native.push(await directTurn(`message ${i}`));
      } else {
        native.push(await directTurn(`message ${i}`));
        skein.push(await skeinTurn(`message ${i}`));
      }
    }
    subscription.close();
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
    const rows = [
      {
        name: "codex_turn_overhead_ratio",
        value: +ratio.toFixed(3),
        unit: "ratio",
        target: TARGET,
        pass: ratio <= TARGET,
      },
    ];
    writeBenchRows("codex.json", rows);
  } finally {
    await direct.close();
    await h.close();
  }
}

await main();
