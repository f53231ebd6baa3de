// sse_fanout_p99_ms: 100 SSE subscribers (typed client, real HTTP, in a separate process) watch
// thread shells while 500 events/s are committed; p99 of commit → client delivery of the events
// the sidebar watch forwards. As in a running turn, most events are streamed text the watch
// drops (ItemDeltaAppended) and one in SHELL_EVERY changes a row (RunProgressNoted, a live notice
// set and cleared); only those are timed, and every subscriber must get every one. Commit time
// is when the store's bus publishes the event (an in-process subscriber stamps it). Writes
// bench/.rows/api-sse.json at the repo root for the `pnpm bench` report.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openSqliteEventStore } from "@skein/db";
import { percentile } from "@skein/db/bench";
import { createSilentLogger } from "../src/logger.ts";
import { createOrchestrator } from "../src/orchestrator/index.ts";
import { startServer } from "../src/server.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";

const SUBSCRIBERS = benchSize(100, 10);
const EVENTS_PER_SECOND = 500;
/** One event in this many is one the sidebar watch forwards. */
const SHELL_EVERY = 10;
const SHELL_EVENT_TYPE = "RunProgressNoted";
const WARMUP_MS = benchSize(1_000, 200);
const MEASURE_MS = benchSize(10_000, 1_000);
const THREADS = 20;
const TARGET_MS = 50;

const here = path.dirname(fileURLToPath(import.meta.url));
const loader = pathToFileURL(path.join(here, "../node_modules/tsx/dist/loader.mjs")).href;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type ChildMessage =
  | { type: "ready" }
  | { type: "error"; message: string }
  | { type: "latencies"; latencies: number[]; missing: number };

/** A turn's worth of events (one notice, then streamed text) goes to one thread at a time. */
const threadOf = (n: number) => Math.floor(n / SHELL_EVERY) % THREADS;

/** The n-th committed event: streamed text mostly, a run's live notice set or cleared at times. */
function benchEvent(n: number): { type: string; data: Record<string, unknown> } {
  const at = new Date().toISOString();
  if (n % SHELL_EVERY !== 0) {
    return {
      type: "ItemDeltaAppended",
      data: { nodeId: "nod_bench", delta: `token ${n} `.padEnd(48, "."), at },
    };
  }
  const notice = {
    kind: "model_unreachable",
    text: `Reconnecting… ${n}`,
    attempt: 1,
    maxAttempts: 5,
    cause: "stream disconnected",
    since: at,
  };
  const progress = Math.floor(n / (SHELL_EVERY * THREADS)) % 2 === 0 ? notice : null;
  return { type: SHELL_EVENT_TYPE, data: { runId: `run_bench${threadOf(n)}`, progress, at } };
}

const t0 = now();
const dataDir = mkdtempSync(path.join(tmpdir(), "skein-sse-bench-"));
const store = openSqliteEventStore({ dataDir });
const orchestrator = await createOrchestrator({ store, adapters: {}, dataDir });
const server = await startServer({
  orchestrator,
  store,
  host: "127.0.0.1",
  port: 0,
  webOrigins: [],
  apiToken: null,
  log: createSilentLogger(),
});

try {
  const child = fork(path.join(here, "sse-fanout-clients.ts"), [server.url, String(SUBSCRIBERS)], {
    // `node --cpu-prof … sse-fanout.bench.ts` profiles the subscribers' process as well.
    execArgv: ["--import", loader, ...process.execArgv.filter((a) => a.startsWith("--cpu-prof"))],
  });
  const messages: ChildMessage[] = [];
  let wake: () => void = () => undefined;
  child.on("message", (message: ChildMessage) => {
    messages.push(message);
    wake();
  });
  const next = async (type: ChildMessage["type"]): Promise<ChildMessage> => {
    for (;;) {
      const failure = messages.find((m) => m.type === "error");
      if (failure?.type === "error") throw new Error(`subscriber failed: ${failure.message}`);
      const found = messages.find((m) => m.type === type);
      if (found) return found;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  await next("ready");
  console.error(`[bench] ${SUBSCRIBERS} subscribers ready after ${Math.round(now() - t0)} ms`);

  // The commit clock: the bus hands this subscriber each event as it publishes the commit.
  const committedAt = new Map<number, number>();
  const clock = store.subscribe({ afterSequence: await store.headSequence() });
  const stamping = (async () => {
    for await (const event of clock)
      if (event.type === SHELL_EVENT_TYPE) committedAt.set(event.sequence, now());
  })();

  // Paced by elapsed time, one append (one command) per event, not awaited one by one: the
  // store group-commits whatever is queued within a tick, as it would under real load.
  const started = now();
  const cpuBefore = process.cpuUsage();
  let sent = 0;
  const pending: Promise<unknown>[] = [];
  let measureFrom = Number.POSITIVE_INFINITY;
  while (now() - started < WARMUP_MS + MEASURE_MS) {
    const due = Math.floor(((now() - started) / 1000) * EVENTS_PER_SECOND);
    for (; sent < due; sent += 1) {
      const append = store.append(`thread-thr_bench${threadOf(sent)}`, "any", [benchEvent(sent)]);
      if (now() - started >= WARMUP_MS && measureFrom === Number.POSITIVE_INFINITY) {
        measureFrom = (await append).firstSequence;
      } else {
        pending.push(append);
      }
    }
    await sleep(2);
  }
  await Promise.all(pending);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuShare = (cpu.user + cpu.system) / 1000 / (now() - started);
  const last = await store.headSequence();
  await sleep(1_000); // let the last deliveries land
  clock.close();
  await stamping;

  const commits: [number, number][] = [];
  for (const [sequence, at] of committedAt) {
    if (sequence >= measureFrom && sequence <= last) commits.push([sequence, at]);
  }
  console.error(`[bench] load done after ${Math.round(now() - t0)} ms`);
  child.send({ type: "commits", commits });
  const result = await next("latencies");
  if (result.type !== "latencies") throw new Error("unexpected reply");
  const p99 = Math.round(percentile(result.latencies, 99) * 100) / 100;
  const p50 = Math.round(percentile(result.latencies, 50) * 100) / 100;
  const max = Math.round(result.latencies.reduce((a, b) => Math.max(a, b), 0) * 100) / 100;
  const rows = [
    {
      name: "sse_fanout_p99_ms",
      value: p99,
      unit: "ms",
      target: `<= ${TARGET_MS}`,
      pass: p99 <= TARGET_MS && result.missing === 0,
    },
  ];
  if (commits.length === 0) throw new Error("no sidebar events were committed while measuring");
  writeBenchRows("api-sse.json", rows);
  console.log(
    `sse_fanout_p99_ms ${p99} ms (p50 ${p50}, max ${max}) over ${result.latencies.length} ` +
      `deliveries: ${commits.length} events x ${SUBSCRIBERS} subscribers at ` +
      `${EVENTS_PER_SECOND}/s, ${result.missing} missing; server process at ` +
      `${Math.round(cpuShare * 100)}% of a core; target ${TARGET_MS}`,
  );
  await new Promise((resolve) => child.once("exit", resolve));
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
