/**
 * Issue 34 row detail_bytes_per_run: the bytes on the wire to read a 1,000-run thread's whole
 * history as the web UI does (the latest window of `thread.detail`, then each older window by its
 * `before` cursor), over real HTTP with a browser's Accept-Encoding, ÷ its runs. Each run is a
 * test command with 20 lines of output and a ~700-character reply (scripted-run.ts).
 *
 * The target is OpenCode's bytes per turn for the same kind of turns, measured once side by
 * side in issue 34 (Skein's 2.94 MB for 1,000 runs was 1.7× OpenCode's: 1,729 bytes per turn);
 * OpenCode is not installed here to measure it again.
 */
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqliteEventStore } from "@skein/db";
import { createSilentLogger } from "../src/logger.ts";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { startServer } from "../src/server.ts";
import { HistorySeeder } from "../test/support/history-seed.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { scriptedRunContent } from "./scripted-run.ts";

const RUNS = benchSize(1_000, 60);
const OPENCODE_BYTES_PER_TURN = 1_729;
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

type Sized = { wire: number; body: Buffer };

/** A GET's bytes as they crossed the wire (still encoded), and its decoded body. */
function get(url: string): Promise<Sized> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", async () => {
          const raw = Buffer.concat(chunks);
          const { brotliDecompressSync, gunzipSync } = await import("node:zlib");
          const encoding = res.headers["content-encoding"];
          const body =
            encoding === "br"
              ? brotliDecompressSync(raw)
              : encoding === "gzip"
                ? gunzipSync(raw)
                : raw;
          // Status line and headers count too: a window is one request.
          const head = Object.entries(res.headers)
            .map(([name, value]) => `${name}: ${String(value)}\r\n`)
            .join("");
          resolve({ wire: raw.length + head.length, body });
        });
      })
      .on("error", reject);
  });
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), "skein-bench-wire-"));
  const store = openSqliteEventStore({ dataDir: dir });
  const orchestrator = await createOrchestrator({ store, adapters: {}, dataDir: dir });
  const server = await startServer({
    orchestrator,
    store,
    host: "127.0.0.1",
    port: 0,
    webOrigins: [],
    apiToken: null,
    log: createSilentLogger(),
    backgroundCheckpoints: false,
  });
  try {
    const seed = new HistorySeeder(store);
    const threadId = seed.createThread("wire");
    for (let i = 1; i <= RUNS; i += 1) {
      seed.run(
        threadId,
        `message ${i}: ${"please look at this ".repeat(4)}`,
        scriptedRunContent(i),
      );
      if (i % 200 === 0) await seed.flush();
    }
    await seed.flush();

    let wire = 0;
    let decoded = 0;
    let windows = 0;
    let runs = 0;
    let before: string | null | undefined;
    do {
      const input = { threadId, ...(before ? { window: { before } } : {}) };
      const url = `${server.url}/trpc/thread.detail?input=${encodeURIComponent(JSON.stringify(input))}`;
      const answer = await get(url);
      wire += answer.wire;
      decoded += answer.body.length;
      windows += 1;
      const detail = (
        JSON.parse(answer.body.toString()) as {
          result: { data: { runs: unknown[]; window: { before: string | null } } };
        }
      ).result.data;
      runs += detail.runs.length;
      before = detail.window.before;
    } while (before);
    if (runs !== RUNS) throw new Error(`read ${runs} runs of ${RUNS}`);
    const perRun = wire / RUNS;
    console.log(
      `${RUNS} runs in ${windows} windows: ${(wire / 1024).toFixed(0)} KiB on the wire ` +
        `(${(decoded / 1024).toFixed(0)} KiB decoded), ${perRun.toFixed(0)} bytes per run`,
    );
    writeBenchRows("api-detail-wire.json", [
      {
        name: "detail_bytes_per_run",
        value: Math.round(perRun),
        unit: "bytes",
        target: `<= ${OPENCODE_BYTES_PER_TURN} (OpenCode)`,
        pass: perRun <= OPENCODE_BYTES_PER_TURN,
      },
    ]);
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
