import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** One bench process of `pnpm --filter @skein/api bench`. */
export type Bench = {
  name: string;
  file: string;
  env?: Record<string, string>;
  nodeFlags?: string[];
};

// Every bench, PostgreSQL variants included: `pnpm bench` writes every row of bench/results.json
// from this one run, so a row no bench here measures would go stale.
export const BENCHES: readonly Bench[] = [
  { name: "checkpoint", file: "checkpoint.bench.ts" },
  { name: "orchestrator", file: "orchestrator.bench.ts" },
  { name: "run-idle", file: "run-idle.bench.ts" },
  { name: "history", file: "history.bench.ts", nodeFlags: ["--expose-gc"] },
  {
    name: "history-pg",
    file: "history.bench.ts",
    nodeFlags: ["--expose-gc"],
    env: { SKEIN_BENCH_HISTORY_PG: "1" },
  },
  { name: "large-history", file: "large-history.bench.ts" },
  { name: "large-history-pg", file: "large-history.bench.ts", env: { SKEIN_BENCH_LARGE_PG: "1" } },
  { name: "failure", file: "failure.bench.ts" },
  { name: "sse-fanout", file: "sse-fanout.bench.ts" },
  { name: "send-load", file: "send-load.bench.ts" },
  { name: "codex-overhead", file: "codex-overhead.bench.ts" },
  { name: "codex-first-turn", file: "codex-first-turn.bench.ts" },
  { name: "codex-fork", file: "codex-fork.bench.ts" },
  { name: "claude-overhead", file: "claude-overhead.bench.ts" },
  { name: "runtime-rss", file: "runtime-rss.bench.ts" },
  { name: "acp-overhead", file: "acp-overhead.bench.ts" },
  { name: "metrics", file: "metrics.bench.ts" },
  { name: "checkpointer-append", file: "checkpointer-append.bench.ts" },
  { name: "fan-out", file: "fan-out.bench.ts" },
  { name: "time-travel", file: "time-travel.bench.ts" },
  { name: "storage", file: "storage.bench.ts" },
  { name: "detail-wire", file: "detail-wire.bench.ts" },
  { name: "mcp", file: "mcp.bench.ts" },
  { name: "handoff-fidelity", file: "handoff-fidelity.bench.ts" },
];

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const TSX_LOADER = pathToFileURL(path.join(BENCH_DIR, "../node_modules/tsx/dist/loader.mjs")).href;

export type BenchOutcome = { code: number | null; signal: NodeJS.Signals | null; output: string };

/** Runs one bench in its own process (as `tsx <file>` would); the output is echoed and kept. */
export function runBench(
  bench: Bench,
  options: { env?: Record<string, string>; echo?: boolean } = {},
): Promise<BenchOutcome> {
  const child = spawn(
    process.execPath,
    ["--import", TSX_LOADER, ...(bench.nodeFlags ?? []), path.join(BENCH_DIR, bench.file)],
    {
      cwd: path.dirname(BENCH_DIR),
      env: { ...process.env, ...bench.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  const keep = (stream: NodeJS.WritableStream) => (chunk: Buffer) => {
    output += chunk.toString();
    if (options.echo !== false) stream.write(chunk);
  };
  child.stdout.on("data", keep(process.stdout));
  child.stderr.on("data", keep(process.stderr));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, output }));
  });
}
