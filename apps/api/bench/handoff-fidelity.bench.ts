/**
 * Handoff fidelity on the real runtimes (issue 25, B13; method in docs/handoff-fidelity.md).
 *
 * For each length (40, 400, 4,000 runs) and direction (Codex → Claude, Claude → Codex), a seeded
 * generated thread is written through the store's append path as if the source runtime had
 * recorded it (HistorySeeder: real commands, decided and projected). Then the real switch: one
 * message on the other provider, to the real `codex app-server` or the real Claude Agent SDK on
 * the fake model servers, whose model is scripted to make the three generic skein_history calls
 * (SCRIPTED_HISTORY_CALLS) and answer. Recall is scored from what the fake model received: the
 * handoff in its first request and the tool results in its last. The bring-back rows do the same
 * for a fork brought back into its source thread (a merge-back delta).
 *
 * Rows: handoff_recall_{40,400,4000} and handoff_delta_recall_{…} (the lower of the two
 * directions, with per-direction rows beside them), handoff_superseded_leak and
 * handoff_delta_superseded_leak (the sum over every case), handoff_tokens_4000 (the handoff's
 * size against its budget), and handoff_send_ack_ms_4000: how long sendMessage takes to answer
 * the 4,000-run switch, against how long building that handoff takes on its own: the handoff is
 * built at run start, after the answer, so the answer takes less than the build. Never asserts.
 */
import {
  anthropicTextReply,
  anthropicToolResults,
  anthropicToolUseReply,
  anthropicUserTexts,
  functionCallOutputs,
  functionCallReply,
  messageTexts,
  responsesTextReply,
} from "@skein/fake-models";
import type { ProviderKind, ThreadId } from "@skein/domain";
import { buildHandoff, estimateTokens } from "@skein/transfer";
import {
  type GeneratedThread,
  generateThread,
  SCRIPTED_HISTORY_CALLS,
  scoreFidelity,
  toTransferInputs,
} from "@skein/transfer/fidelity";
import { createClaudeSkeinHarness } from "../test/support/claude-skein-harness.ts";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { type BenchRow, benchSize, writeBenchRows } from "./bench-rows.ts";

// The smoke runs the shortest length only; the longest one gets the token and send-ack rows.
const LENGTHS: readonly number[] = benchSize([40, 400, 4_000], [40]);
const LONGEST = LENGTHS.at(-1) ?? 4_000;
const SEED = 25;
const other = (p: ProviderKind): ProviderKind => (p === "codex" ? "claude" : "codex");

type Harness = Awaited<ReturnType<typeof createClaudeSkeinHarness>>;

async function seedThread(
  h: Harness,
  seed: HistorySeeder,
  generated: GeneratedThread,
  provider: ProviderKind,
  fork: boolean,
): Promise<{ target: ThreadId; bringBackFrom?: ThreadId }> {
  let target: ThreadId;
  let into: ThreadId;
  if (fork) {
    // The source runs once for real on the provider the bring-back returns to, so the delta
    // resumes that provider thread; the fork's generated runs are seeded as the other's.
    const to = other(provider);
    if (to === "claude") h.anthropic.enqueue(anthropicTextReply("Repository ready."));
    else h.openai!.enqueue(responsesTextReply("Repository ready."));
    target = await h.createThread({ provider: to });
    await h.send(target, "Set up the repository.", { provider: to });
    await seed.attach(target);
    into = await seed.fork(target);
  } else {
    target = seed.createThread(`generated ${generated.runs.length}`);
    into = target;
  }
  seed.provider = provider;
  generated.runs.forEach((run, i) => {
    seed.run(into, run.user, {
      reply: [run.assistant],
      tools: run.commands.map((c) => ({
        command: c.input,
        output: [c.output],
        exitCode: c.exitCode,
      })),
      files: run.files,
      ...(run.todo ? { todo: run.todo } : {}),
    });
    if (i % 1_000 === 999) void seed.settle(4);
  });
  await seed.flush();
  // Let the seeder drop what it holds: the orchestrator reads the threads from the store.
  seed.forget(into);
  if (into !== target) seed.forget(target);
  return fork ? { target, bringBackFrom: into } : { target };
}

/** Scripts the target's model, sends the message, and returns what the model received. */
async function switchOnce(
  h: Harness,
  threadId: ThreadId,
  to: ProviderKind,
  bringBackFrom?: ThreadId,
) {
  const calls = SCRIPTED_HISTORY_CALLS.map((c) => ({ ...c }));
  const before = to === "claude" ? h.claudeRequests().length : h.openai!.requests.length;
  if (to === "claude") {
    h.anthropic.enqueue(
      ...calls.map((c, i) =>
        anthropicToolUseReply("mcp__skein__skein_history", c, { id: `toolu_${i}` }),
      ),
      anthropicTextReply("ok"),
    );
  } else {
    h.openai!.enqueue(
      ...calls.map((c, i) => functionCallReply("skein_history", c, `call_${i}`)),
      responsesTextReply("ok"),
    );
  }
  await h.thread(threadId); // warm: the answer is timed, not the first read of the history
  const started = performance.now();
  const { runId } = await h.orchestrator.sendMessage({
    threadId,
    text: "Carry on from here.",
    provider: to,
    ...(bringBackFrom ? { bringBackFrom } : {}),
  });
  const ackMs = performance.now() - started;
  await h.orchestrator.waitForRun(runId);
  const state = await h.thread(threadId);
  const status = state.runs.get(runId)?.status;
  if (to === "claude") {
    const requests = h.claudeRequests().slice(before);
    const handoff =
      anthropicUserTexts(requests[0]!).find((t) => t.startsWith("# Context handoff")) ?? "";
    const results = anthropicToolResults(requests.at(-1)!).map((r) => r.text);
    return { status, handoff, results, ackMs };
  }
  const requests = h.openai!.requests.slice(before);
  const handoff =
    messageTexts(requests[0]!, "user").find((t) => t.startsWith("# Context handoff")) ?? "";
  const results = functionCallOutputs(requests.at(-1)!).map((o) => o.output);
  return { status, handoff, results, ackMs };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** Wall time of building that thread's handoff on its own, the median of five. */
function builderMs(generated: GeneratedThread): number {
  const inputs = toTransferInputs(generated, {
    threadId: "thr_b",
    provider: "codex",
    providerThreadId: "pth_b",
  });
  const selection = [{ threadId: "thr_b", ordinals: inputs.runs.map((r) => r.ordinal) }];
  const samples = Array.from({ length: 5 }, () => {
    const started = performance.now();
    buildHandoff({
      strategy: "full_thread_summary",
      transfer: {
        id: "ctx_b",
        type: "provider_handoff",
        sourceThreadId: "thr_b",
        targetThreadId: "thr_b",
      },
      selection,
      ...inputs,
      targetProvider: "claude",
      historyTool: true,
    });
    return performance.now() - started;
  }).sort((a, b) => a - b);
  return samples[2] ?? Number.NaN;
}

async function main() {
  const h = await createClaudeSkeinHarness({ codex: "real" });
  // One seeder for the whole run: its ids are sequential, so a second one would reuse them.
  const seed = new HistorySeeder(h.store, h.projectId);
  const rows: BenchRow[] = [];
  const leaks = { switch: 0, delta: 0 };
  const acks = new Map<number, number>();
  try {
    for (const kind of ["switch", "delta"] as const) {
      const prefix = kind === "switch" ? "handoff" : "handoff_delta";
      for (const length of LENGTHS) {
        const generated = generateThread(length, SEED + length);
        const recalls: number[] = [];
        for (const from of ["codex", "claude"] as const) {
          const to = other(from);
          const seeded = await seedThread(h, seed, generated, from, kind === "delta");
          const got = await switchOnce(h, seeded.target, to, seeded.bringBackFrom);
          const score = scoreFidelity(generated.facts, got.handoff, got.results);
          if (got.status !== "completed" || got.handoff === "") {
            console.error(
              `${prefix} ${length} ${from}→${to}: run ${got.status}, handoff ${got.handoff.length} chars`,
            );
          }
          if (score.missed.length > 0)
            console.error(`${prefix} ${length} ${from}→${to} missed`, score.missed);
          if (score.leaked.length > 0)
            console.error(`${prefix} ${length} ${from}→${to} leaked`, score.leaked);
          const kindLine = got.handoff.split("\n").find((l) => l.startsWith("kind: ")) ?? "";
          console.log(
            `${prefix} ${length} ${from}→${to}: ${kindLine}, ${estimateTokens(got.handoff)} tokens, ${got.results.length} tool results, recall ${score.recall} (text alone ${scoreFidelity(generated.facts, got.handoff).recall})`,
          );
          recalls.push(score.recall);
          leaks[kind] += score.supersededLeak;
          rows.push({
            name: `${prefix}_recall_${length}_${from}_to_${to}`,
            value: round(score.recall),
            unit: "ratio",
            target: 0.95,
            pass: score.recall >= 0.95,
          });
          if (kind === "switch" && from === "codex") acks.set(length, got.ackMs);
          if (length === LONGEST && kind === "switch" && from === "codex") {
            const tokens = estimateTokens(got.handoff);
            rows.push({
              name: `handoff_tokens_${LONGEST}`,
              value: tokens,
              unit: "tokens",
              target: 16_000,
              pass: tokens <= 16_000,
            });
          }
        }
        const worst = Math.min(...recalls);
        rows.push({
          name: `${prefix}_recall_${length}`,
          value: round(worst),
          unit: "ratio",
          target: 0.95,
          pass: worst >= 0.95,
        });
      }
      rows.push({
        name: `${prefix}_superseded_leak`,
        value: leaks[kind],
        unit: "facts",
        target: 0,
        pass: leaks[kind] === 0,
      });
    }
    // The send's answer against the build it would contain if the handoff were built inside it.
    const ack = acks.get(LONGEST) ?? Number.NaN;
    const buildMs = builderMs(generateThread(LONGEST, SEED + LONGEST));
    console.log(
      `send answered in ${[...acks].map(([n, ms]) => `${ms.toFixed(1)} ms at ${n} runs`).join(", ")}; the ${LONGEST}-run build takes ${buildMs.toFixed(1)} ms`,
    );
    rows.push({
      name: `handoff_send_ack_ms_${LONGEST}`,
      value: round(ack),
      unit: "ms",
      target: `< build (${buildMs.toFixed(0)} ms)`,
      pass: ack < buildMs,
    });
  } finally {
    await h.close();
  }
  writeBenchRows("api-handoff-fidelity.json", rows);
}

await main();
