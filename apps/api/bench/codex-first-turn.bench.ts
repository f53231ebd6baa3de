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
import {
  CodexAppServerClient,
  resolveCodexConfig,
  runtimePolicy,
} from "@skein/adapters-codex/testing";
import type { StoredEvent } from "@skein/db";
import { type RunId, threadStreamId } from "@skein/domain";
import { DELEGATE_TOOL } from "../src/orchestrator/index.ts";
import { createCodexSkeinHarness } from "../test/support/codex-skein-harness.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";

const WARMUP = benchSize(3, 1);
const ROUNDS = benchSize(30, 2);
const TARGET = 1.15;
/** Pause after every turn, either side, so one turn's tail (rollout, checkpoint) is not charged to the next. */
const SETTLE_MS = 200;

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves a run's RunFinished from one live subscription of its thread. */
async function finished(events: AsyncIterable<StoredEvent>, runId: RunId): Promise<void> {
  for await (const event of events) {
    if (event.type === "RunFinished" && (event.data as { runId: string }).runId === runId) return;
  }
}

async function main() {
  /** Outgoing requests and turn/completed of the Skein turn being timed, by time. */
  let frames: { method: string; at: number }[] = [];
  const h = await createCodexSkeinHarness({
    onFrame: (frame) => {
      const wanted =
        (frame.direction === "outgoing" && frame.messageKind === "request") ||
        frame.method === "turn/completed";
      if (wanted && frame.method) frames.push({ method: frame.method, at: performance.now() });
    },
  });
  const direct = await CodexAppServerClient.start({
    config: resolveCodexConfig({ codexHome: h.codexHome, env: { RUST_LOG: "error" } }),
    providerSessionId: "pss_bench_direct",
    cwd: h.workspace,
  });
  const completedIds = new Set<string>();
  const waiters = new Map<string, () => void>();
  direct.onNotification((n) => {
    if (n.method !== "turn/completed") return;
    completedIds.add(n.params.turn.id);
    waiters.get(n.params.turn.id)?.();
  });
  const phases = new Map<string, number[]>();
  const note = (phase: string, ms: number) => phases.set(phase, [...(phases.get(phase) ?? []), ms]);
  try {
    const policy = runtimePolicy("approval-required");
    const directFirstTurn = async (text: string) => {
      const started = performance.now();
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
      await sleep(SETTLE_MS);
      return ended - started;
    };

    for (let i = 0; i < WARMUP; i += 1) {
      await directFirstTurn(`warm ${i}`);
      await skeinFirstTurn(`warm ${i}`, false);
    }
    const skein: number[] = [];
    const native: number[] = [];
    let seed = 0x5eed;
    const coin = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed < 2 ** 30;
    };
    for (let i = 0; i < ROUNDS; i += 1) {
      if (coin()) {
        skein.push(await skeinFirstTurn(`message ${i}`, true));
        native.push(await directFirstTurn(`message ${i}`));
      } else {
        native.push(await directFirstTurn(`message ${i}`));
        skein.push(await skeinFirstTurn(`message ${i}`, true));
      }
    }
    const ratio = median(skein) / median(native);
    console.log(
      `first turn on a new thread: skein median ${median(skein).toFixed(1)} ms, direct median ` +
        `${median(native).toFixed(1)} ms, ratio ${ratio.toFixed(3)}; Skein's steps (median ms): ` +
        [...phases].map(([phase, ms]) => `${phase} ${median(ms).toFixed(1)}`).join(", "),
    );
    writeBenchRows("codex-first-turn.json", [
      {
        name: "new_thread_first_turn_ratio",
        value: +ratio.toFixed(3),
        unit: "ratio",
        target: `<= ${TARGET}`,
        pass: ratio <= TARGET,
      },
    ]);
  } finally {
    await direct.close();
    await h.close();
  }
}

await main();
