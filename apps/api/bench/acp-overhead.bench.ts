/**
 * Issue 28 row: acp_turn_overhead_ratio. The same instant scripted-model turn on real Gemini CLI
 * (`gemini --acp`, the fake Gemini API), timed two ways on warm agent processes, interleaved so
 * machine noise hits both alike:
 * - through Skein: sendMessage → the run's RunFinished in the store (orchestrator, real SQLite
 *   store, the ACP adapter);
 * - directly: `session/prompt` → its answer, as newline-delimited JSON-RPC on the agent's stdio
 *   from a second process of the same CLI with the same environment, nothing of Skein's between.
 * Both sessions grow the same history. The fake model runs in a process of its own, as a real
 * model service would be: in this one, its answers would wait on Skein's work. A ratio, never a
 * wall-clock bound.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { createGeminiAdapter, geminiAgentSpec } from "@skein/adapters-acp";
import { openSqliteEventStore } from "@skein/db";
import type { RunId, ThreadId } from "@skein/domain";
import { createGeminiTestHome } from "@skein/fake-models";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { benchSize, ratioRow, writeBenchRows } from "./bench-rows.ts";
import { startModelProcess } from "./model-process.ts";
import { median, pairedTurns, skeinThreadTurns } from "./paired-turns.ts";

const WARMUP = benchSize(3, 0);
const ROUNDS = Number(process.env.ACP_BENCH_ROUNDS ?? benchSize(20, 1));
const TARGET = 1.15;
/** Pause after every turn, either side, so one turn's tail (a checkpoint, the CLI's own session write) is charged to neither. */
const SETTLE_MS = 200;

/** A bare ACP client: JSON-RPC 2.0 lines on the agent's stdio, requests answered by id. */
function rawAcp(child: ChildProcess) {
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const lines = createInterface({ input: child.stdout! });
  lines.on("line", (line) => {
    const frame = JSON.parse(line) as {
      id?: number;
      method?: string;
      result?: unknown;
      error?: { message: string };
    };
    if (frame.id === undefined || frame.method !== undefined) return; // notifications, requests
    const waiter = pending.get(frame.id);
    pending.delete(frame.id);
    if (frame.error) waiter?.reject(new Error(frame.error.message));
    else waiter?.resolve(frame.result);
  });
  return {
    request<T>(method: string, params: unknown): Promise<T> {
      const id = nextId++;
      child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      return new Promise<T>((resolve, reject) =>
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject }),
      );
    },
  };
}

async function main() {
  const server = await startModelProcess("fake-gemini-process.ts");
  const home = await createGeminiTestHome({ baseUrl: server.url });
  const dataDir = mkdtempSync(join(tmpdir(), "skein-acp-bench-data-"));
  const skeinCwd = mkdtempSync(join(tmpdir(), "skein-acp-bench-skein-"));
  const directCwd = mkdtempSync(join(tmpdir(), "skein-acp-bench-direct-"));
  const store = openSqliteEventStore({ dataDir });
  // Each Skein turn's moments (ms) and this process's CPU time (ms) at them: sent, its
  // session/prompt out, the answer in. Between prompt and answer is the agent's own share; the
  // CPU is Skein's alone (the direct side's client idles meanwhile, the fake model runs apart).
  const cpuMs = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1_000;
  };
  let sent = { at: 0, cpu: 0 };
  let promptOut = { at: 0, cpu: 0 };
  let promptIn = { at: 0, cpu: 0 };
  const orchestrator = await createOrchestrator({
    store,
    adapters: { gemini: createGeminiAdapter({ env: home.env }) },
    dataDir,
    sessionIdleMs: 0,
    rawLog: {
      record(frame) {
        if (frame.direction === "outgoing" && frame.method === "session/prompt") {
          promptOut = { at: performance.now(), cpu: cpuMs() };
        } else if (frame.direction === "incoming" && frame.messageKind === "response") {
          promptIn = { at: performance.now(), cpu: cpuMs() };
        }
        return "bench";
      },
    },
  });
  const spec = geminiAgentSpec({ env: home.env });
  const child = spawn(spec.command, [...(spec.args ?? [])], {
    cwd: directCwd,
    env: { ...process.env, ...spec.env },
    stdio: ["pipe", "pipe", "ignore"],
  });
  try {
    const direct = rawAcp(child);
    await direct.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await direct.request<{ sessionId: string }>("session/new", {
      cwd: directCwd,
      mcpServers: [],
    });
    const directTurn = async (text: string) => {
      const started = performance.now();
      await direct.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
      return performance.now() - started;
    };

    const { projectId } = await orchestrator.createProject({
      name: "acp bench",
      workspaceRoot: skeinCwd,
    });
    const { threadId } = await orchestrator.createThread({ projectId, provider: "gemini" });
    const split = { agent: [] as number[], before: [] as number[], after: [] as number[] };
    const cpu = { before: [] as number[], during: [] as number[], after: [] as number[] };
    const skeinSide = await skeinThreadTurns({
      store,
      threadId: threadId as ThreadId,
      send: async (text) => {
        sent = { at: performance.now(), cpu: cpuMs() };
        return (await orchestrator.sendMessage({ threadId, text })).runId as RunId;
      },
      waitForRun: (runId) => orchestrator.waitForRun(runId),
      onFinished: (_elapsed, measured) => {
        if (!measured) return;
        const finished = { at: performance.now(), cpu: cpuMs() };
        split.agent.push(promptIn.at - promptOut.at);
        split.before.push(promptOut.at - sent.at);
        split.after.push(finished.at - promptIn.at);
        cpu.before.push(promptOut.cpu - sent.cpu);
        cpu.during.push(promptIn.cpu - promptOut.cpu);
        cpu.after.push(finished.cpu - promptIn.cpu);
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
    const own = skein.map((total, i) => total - (split.agent[i] ?? 0));
    const ms = (xs: number[]) => median(xs).toFixed(1);
    console.log(
      `skein median ${ms(skein)} ms, direct ACP median ${ms(native)} ms, ratio ${ratio.toFixed(3)}; ` +
        `the agent's session/prompt inside the Skein turn median ${ms(split.agent)} ms, Skein's own ` +
        `time around it median ${ms(own)} ms (before the prompt ${ms(split.before)}, after the ` +
        `answer ${ms(split.after)}); Skein's CPU per turn (medians, ms): before the prompt ` +
        `${ms(cpu.before)}, while the agent works ${ms(cpu.during)}, after the answer ${ms(cpu.after)}`,
    );
    writeBenchRows("acp.json", [ratioRow("acp_turn_overhead_ratio", ratio, TARGET)]);
  } finally {
    child.stdin?.end();
    child.kill("SIGTERM");
    await orchestrator.shutdown();
    await store.close();
    server.close();
    await home.remove();
    for (const dir of [dataDir, skeinCwd, directCwd]) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
