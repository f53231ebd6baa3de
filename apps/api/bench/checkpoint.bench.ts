// Median checkpoint capture on a 5,000-file git workspace with 10 files changed per run.
// Writes bench/.rows/checkpoints.json at the repo root for the `pnpm bench` report.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createCheckpointStore } from "@skein/checkpoints";
import { benchSize, writeBenchRows } from "./bench-rows.ts";

const FILES = benchSize(5_000, 1_000);
const PER_DIR = 100;
const CHANGED = 10;
const WARMUP = benchSize(3, 1);
const RUNS = benchSize(21, 3);
const TARGET_MS = 300;

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", args, { cwd, stdio: "ignore" });
}

function fileName(i: number): string {
  return path.join(`dir${Math.floor(i / PER_DIR)}`, `file${i % PER_DIR}.ts`);
}

function buildWorkspace(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const file = path.join(root, fileName(i));
    if (i % PER_DIR === 0) mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `export const value${i} = ${i};\n// padding ${"x".repeat(i % 200)}\n`);
  }
  writeFileSync(path.join(root, ".gitignore"), "dist/\n");
  git(root, "init", "--quiet");
  git(root, "add", "-A");
  git(
    root,
    "-c",
    "user.name=bench",
    "-c",
    "user.email=bench@skein",
    "commit",
    "--quiet",
    "-m",
    "init",
  );
}

/** Run `n` edits 10 files (a mix of rewrites and new untracked files) like an agent run would. */
function simulateRun(root: string, n: number): void {
  for (let k = 0; k < CHANGED; k++) {
    const i = (n * 97 + k * 491) % FILES;
    if (k < CHANGED - 2)
      writeFileSync(path.join(root, fileName(i)), `// run ${n}\nexport const v = ${n};\n`);
    else writeFileSync(path.join(root, `dir${k}`, `new-${n}-${k}.ts`), `// new in run ${n}\n`);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(path.join(tmpdir(), "skein-ckpt-bench-"));
  try {
    const workspace = path.join(scratch, "ws");
    mkdirSync(workspace);
    buildWorkspace(workspace);
    const store = await createCheckpointStore({
      workspaceRoot: workspace,
      shadowDir: path.join(scratch, "data"),
    });

    const timings: number[] = [];
    let parentRef: string | undefined;
    for (let n = 0; n < WARMUP + RUNS; n++) {
      simulateRun(workspace, n);
      const started = performance.now();
      const result = await store.capture({ threadId: "thr_bench", runId: `run_${n}`, parentRef });
      const elapsed = performance.now() - started;
      if (result.files.length !== CHANGED) {
        throw new Error(`expected ${CHANGED} changed files, got ${result.files.length}`);
      }
      if (n === 0)
        console.log(`first capture (seeded from the user's index): ${elapsed.toFixed(1)} ms`);
      if (n >= WARMUP) timings.push(elapsed);
      parentRef = result.ref;
    }

    const value = Math.round(median(timings) * 10) / 10;
    const rows = [
      {
        name: "checkpoint_capture_ms",
        value,
        unit: "ms",
        target: `<= ${TARGET_MS}`,
        pass: value <= TARGET_MS,
      },
    ];
    writeBenchRows("checkpoints.json", rows);
    console.log(
      `checkpoint_capture_ms median ${value} ms over ${RUNS} captures (min ${Math.min(...timings).toFixed(1)}, max ${Math.max(...timings).toFixed(1)}), target ${TARGET_MS}`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
