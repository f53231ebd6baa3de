import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClaudeAdapter } from "@skein/adapters-claude";
import { createCodexAdapter } from "@skein/adapters-codex";
import { type EventStore, openEventStore, openSqliteEventStore } from "@skein/db";
import {
  type ProviderKind,
  type RunId,
  type ThreadId,
  type ThreadState,
  threadStreamId,
} from "@skein/domain";
import {
  anthropicUserTexts,
  createCodexTestHome,
  type ModelFault,
  messageTexts,
  startFakeMessagesServer,
  startFakeResponsesServer,
  startFaultProxy,
} from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { createReadModels } from "../src/read-models/index.ts";
import { CLAUDE_NO_CLI_RETRY } from "./support/claude-skein-harness.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { scratchSchema } from "./support/postgres.ts";

// Issue 13 item 8: random model faults on both real runtimes for a bounded time, then the
// system must be calm and whole: nothing left running, every failure with its cause, no thread
// flooding the log, and a next message on every thread that completes with its history.

const ROUNDS = 8;
const THREADS: ProviderKind[] = ["codex", "codex", "claude", "claude"];
const FAULT_RATE = 0.5;
/** Events one thread may append within one second (a streamed reply is tens, a loop thousands). */
const MAX_EVENTS_PER_THREAD_SECOND = 150;
/** Events one failed run may append, all its attempts included (issue 13: "say ≤ 20"). */
const MAX_EVENTS_PER_FAILED_RUN = 20;
const SLOW = 400_000;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A small seeded generator, so a failing run can be replayed with its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function faultChooser(random: () => number, claude: boolean): () => ModelFault | null {
  // Claude Code retries 5xx by itself unless told not to; the test wants Skein's attempts.
  const noRetry = claude ? { "x-should-retry": "false" } : undefined;
  const faults: (() => ModelFault)[] = [
    () => ({ kind: "status", status: 500, ...(noRetry ? { headers: noRetry } : {}) }),
    () => ({ kind: "status", status: 529, ...(noRetry ? { headers: noRetry } : {}) }),
    () => ({ kind: "hang" }),
    () => ({ kind: "cut_stream", afterBytes: 40 + Math.floor(random() * 400) }),
    () => ({ kind: "malformed_sse" }),
    () => ({ kind: "slow_first_byte", delayMs: 200 + Math.floor(random() * 600) }),
  ];
  return () => {
    if (random() >= FAULT_RATE) return null;
    return faults[Math.floor(random() * faults.length)]!();
  };
}

async function setup(database: "sqlite" | "postgres") {
  const dataDir = mkdtempSync(join(tmpdir(), "skein-chaos-data-"));
  const workspace = mkdtempSync(join(tmpdir(), "skein-chaos-ws-"));
  const claudeConfigDir = mkdtempSync(join(tmpdir(), "skein-chaos-claude-"));
  cleanups.push(() => {
    for (const dir of [dataDir, workspace, claudeConfigDir])
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  });
  let store: EventStore;
  if (database === "postgres") {
    const schema = await scratchSchema();
    cleanups.push(() => schema.drop());
    store = await openEventStore({ url: schema.url, pollIntervalMs: 100 });
  } else {
    store = openSqliteEventStore({ dataDir });
  }
  cleanups.push(() => store.close());

  const openai = await startFakeResponsesServer();
  cleanups.push(() => openai.close());
  const anthropic = await startFakeMessagesServer();
  cleanups.push(() => anthropic.close());
  const codexProxy = await startFaultProxy({
    upstream: openai.url,
    applies: (r) => r.method === "POST" && r.path.endsWith("/responses"),
  });
  cleanups.push(() => codexProxy.close());
  const claudeProxy = await startFaultProxy({
    upstream: anthropic.url,
    applies: (r) => r.method === "POST" && r.path.includes("/messages"),
  });
  cleanups.push(() => claudeProxy.close());
  const home = await createCodexTestHome({ baseUrl: codexProxy.url, model: "gpt-5.5" });
  cleanups.push(() => home.remove());

  const orchestrator = await createOrchestrator({
    store,
    dataDir,
    sessionIdleMs: 0,
    captureCheckpoints: false,
    adapters: {
      codex: createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } }),
      claude: createClaudeAdapter({
        configDir: claudeConfigDir,
        baseUrl: claudeProxy.url,
        apiKey: "test",
        // A cut stream would otherwise be answered by the CLI's own non-streaming request.
        env: CLAUDE_NO_CLI_RETRY,
      }),
    },
    attempts: { maxRetries: 2, baseDelayMs: 50, maxDelayMs: 400, idleTimeoutMs: 4_000 },
  });
  cleanups.push(() => orchestrator.shutdown());
  const { projectId } = await orchestrator.createProject({
    name: "chaos",
    workspaceRoot: workspace,
  });
  return { store, orchestrator, projectId, openai, anthropic, codexProxy, claudeProxy };
}

function attemptsOf(state: ThreadState, runId: RunId) {
  return [...state.attempts.values()].filter((a) => a.runId === runId);
}

/** The run an event is about, if it names one (RunQueued carries the whole run). */
function runIdOf(data: unknown): string | undefined {
  const d = data as { runId?: string; run?: { id?: string }; item?: { runId?: string } };
  return d.runId ?? d.run?.id ?? d.item?.runId;
}

async function settle(orchestrator: Orchestrator, runIds: RunId[]) {
  await Promise.all(runIds.map((runId) => orchestrator.waitForRun(runId)));
}

describe.each(["sqlite", "postgres"] as const)(
  "chaos on %s: random model faults on both real runtimes",
  (database) => {
    it(
      "B1/B2: nothing left running, every failure with its cause, no flood, and every thread works after",
      async () => {
        // A fixed seed by default (CI), another one through SKEIN_CHAOS_SEED to explore.
        const seed = Number(process.env.SKEIN_CHAOS_SEED ?? 7);
        const random = seeded(seed);
        const s = await setup(database);
        const threads: { threadId: ThreadId; provider: ProviderKind }[] = [];
        for (const provider of THREADS) {
          const { threadId } = await s.orchestrator.createThread({
            projectId: s.projectId,
            provider,
            runtimeMode: "full-access",
          });
          threads.push({ threadId, provider });
        }

        s.codexProxy.setChooser(faultChooser(random, false));
        s.claudeProxy.setChooser(faultChooser(random, true));
        const runs: { threadId: ThreadId; runId: RunId; text: string }[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          const sent = await Promise.all(
            threads.map(async ({ threadId }, i) => {
              const text = `round ${round} thread ${i}`;
              const { runId } = await s.orchestrator.sendMessage({ threadId, text });
              return { threadId, runId, text };
            }),
          );
          runs.push(...sent);
          await settle(
            s.orchestrator,
            sent.map((r) => r.runId),
          );
        }
        s.codexProxy.setChooser(null);
        s.claudeProxy.setChooser(null);

        // Random faults may leave no run failed; one run per provider whose every attempt fails
        // makes sure the per-failed-run bound below is measured on both.
        const attemptsPerRun = 3; // maxRetries 2 + the first attempt
        for (const [i, { threadId, provider }] of threads.entries()) {
          if (i !== THREADS.indexOf(provider)) continue;
          const proxy = provider === "codex" ? s.codexProxy : s.claudeProxy;
          const fault: ModelFault = {
            kind: "status",
            status: 500,
            ...(provider === "claude" ? { headers: { "x-should-retry": "false" } } : {}),
          };
          proxy.inject(...Array.from({ length: attemptsPerRun }, () => fault));
          const text = `doomed ${i}`;
          const { runId } = await s.orchestrator.sendMessage({ threadId, text });
          await s.orchestrator.waitForRun(runId);
          runs.push({ threadId, runId, text });
          const run = (await s.orchestrator.repository.thread(threadId)).runs.get(runId);
          expect(run?.status, `${provider} doomed run`).toBe("failed");
        }

        // Calm: every run ended, and failed ones say why.
        const reads = createReadModels(s.store);
        let recovered = 0;
        let failed = 0;
        for (const { threadId } of threads) {
          const state = await s.orchestrator.repository.refreshThread(threadId);
          expect(state.activeRunId).toBeNull();
          for (const run of state.runs.values()) {
            expect(["completed", "failed", "interrupted"]).toContain(run.status);
            if (run.status === "failed") {
              failed += 1;
              expect(run.error ?? "").toMatch(/\S{3}/);
            }
            if (run.status === "completed" && attemptsOf(state, run.id).length > 1) recovered += 1;
          }
          // The attempts are what a person sees in the thread's detail (E4).
          const detail = await reads.detail(threadId);
          const shown = detail.attempts.map((a) => `${a.runId}/${a.attemptOrdinal}/${a.reason}`);
          const held = [...state.attempts.values()].map(
            (a) => `${a.runId}/${a.attemptOrdinal}/${a.reason}`,
          );
          expect(shown.sort()).toEqual(held.sort());
          // Every failure is visible with its cause: a failed run's error in `thread.detail`,
          // and each attempt that did not complete with its provider turn's error in the graph.
          expect(detail.runs.filter((r) => ["running", "starting"].includes(r.status))).toEqual([]);
          for (const run of detail.runs.filter((r) => r.status === "failed")) {
            expect(run.error ?? "").toMatch(/\S{3}/);
          }
          const graph = await reads.graph(threadId);
          for (const { run, attempts } of graph.runs) {
            for (const { attempt, providerTurn } of attempts) {
              expect(["pending", "running"]).not.toContain(attempt.status);
              if (["superseded", "failed"].includes(attempt.status)) {
                // Says which path left it without a cause (a turn refused before it started has
                // no provider turn; one ended without words has one), should this ever fail.
                const seen = `${attempt.runId}/${attempt.attemptOrdinal} ${attempt.status} (${attempt.reason}), turn ${providerTurn ? `${providerTurn.status}: ${providerTurn.error}` : "none"}, run ${run.status}: ${run.error}`;
                expect(providerTurn?.error ?? "", seen).toMatch(/\S{3}/);
              }
            }
          }
        }

        // No flood: per thread, events per one-second window stay small.
        let maxPerSecond = 0;
        let maxPerFailedRun = 0;
        for (const { threadId } of threads) {
          const events = await s.store.readStream(threadStreamId(threadId));
          const perSecond = new Map<number, number>();
          const perRun = new Map<string, number>();
          // A thread's runs here go one after another, so an event that names no run belongs to
          // the run before it.
          let currentRun: string | undefined;
          for (const event of events) {
            const second = Math.floor(new Date(event.recordedAt).getTime() / 1000);
            perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
            currentRun = runIdOf(event.data) ?? currentRun;
            if (currentRun) perRun.set(currentRun, (perRun.get(currentRun) ?? 0) + 1);
          }
          maxPerSecond = Math.max(maxPerSecond, ...perSecond.values());
          const state = await s.orchestrator.repository.thread(threadId);
          for (const run of state.runs.values()) {
            if (run.status === "failed")
              maxPerFailedRun = Math.max(maxPerFailedRun, perRun.get(run.id) ?? 0);
          }
        }
        expect(maxPerSecond).toBeLessThanOrEqual(MAX_EVENTS_PER_THREAD_SECOND);
        expect(maxPerFailedRun).toBeLessThanOrEqual(MAX_EVENTS_PER_FAILED_RUN);

        // Whole: a next message on every thread completes, and its request holds the thread's
        // completed messages.
        const finals = await Promise.all(
          threads.map(async ({ threadId }, i) => {
            const text = `after the storm ${i}`;
            const { runId } = await s.orchestrator.sendMessage({ threadId, text });
            return { threadId, runId, text };
          }),
        );
        await settle(
          s.orchestrator,
          finals.map((r) => r.runId),
        );
        for (const [i, { threadId, runId }] of finals.entries()) {
          const state = await s.orchestrator.repository.thread(threadId);
          expect(state.runs.get(runId)?.status).toBe("completed");
          const completedTexts = runs
            .filter(
              (r) => r.threadId === threadId && state.runs.get(r.runId)?.status === "completed",
            )
            .map((r) => r.text);
          const sent =
            threads[i]!.provider === "codex"
              ? s.openai.requests
                  .map((body) => messageTexts(body, "user"))
                  .filter((texts) => texts.includes(`after the storm ${i}`))
              : s.anthropic
                  .conversationRequests()
                  .map((request) => anthropicUserTexts(request))
                  .filter((texts) => texts.some((t) => t.includes(`after the storm ${i}`)));
          expect(sent.length).toBeGreaterThan(0);
          const history = sent.at(-1)!.join("\n");
          for (const text of completedTexts) expect(history).toContain(text);
        }
        await eventually(async () => {
          for (const { threadId } of threads) {
            expect(
              (await s.orchestrator.repository.refreshThread(threadId)).activeRunId,
            ).toBeNull();
          }
        });

        const injected = s.codexProxy.applied.length + s.claudeProxy.applied.length;
        console.log(
          `chaos (${database}, seed ${seed}): ${injected} faults injected ` +
            `(codex ${s.codexProxy.applied.length}, claude ${s.claudeProxy.applied.length}); ` +
            `${runs.length} runs: ${recovered} recovered by a new attempt, ${failed} failed with a cause; ` +
            `max ${maxPerFailedRun} events per failed run; max ${maxPerSecond} events per thread-second`,
        );
        expect(injected).toBeGreaterThan(0);
        // The faults bit: some runs needed a new attempt or ended failed.
        expect(recovered + failed).toBeGreaterThan(0);
        expect(failed).toBeGreaterThanOrEqual(2);
      },
      SLOW,
    );
  },
);
