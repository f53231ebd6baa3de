/**
 * Issue 35 item 5, rows send_ack_p99_ms and send_ack_load_ratio: Skein as a user starts it
 * (`src/main.ts`, its own process, real SQLite, the real `codex app-server` against the fake
 * Responses server) under THREADS threads × MESSAGES messages while SUBSCRIBERS `events.watch`
 * streams (another process) follow the log. Each send is one HTTP call timed from request to
 * answer, over its person's own keep-alive connection, opened (and timed) before the load as a
 * page open before its person sends; a thread's messages go one after another (each answered
 * before the next, so most queue behind the run in flight), all threads at once. Before the
 * load, IDLE sends one at a time on a quiet server give the same run's idle ack; the ratio is
 * load p99 ÷ idle median.
 * `/healthz` is probed all along. Every run must complete and every subscriber must have been
 * given exactly the log (no event lost, duplicated or out of order).
 *
 * Sizes: SKEIN_LOAD_THREADS, SKEIN_LOAD_MESSAGES, SKEIN_LOAD_SUBSCRIBERS, SKEIN_LOAD_IDLE; the
 * default is the acceptance figure, 200 × 5 with 100 subscribers (~2 minutes here since test
 * Codex homes take no shell snapshots). SKEIN_LOAD_SERVER_ARGS adds node flags to the server
 * (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
import { fork, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import {
  createCodexTestHome,
  responsesSlowTextReply,
  startFakeResponsesServer,
} from "@skein/fake-models";
import { percentile } from "@skein/db/bench";
import { API_DIR, ChildServer, TSX_LOADER } from "../test/support/child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { benchSize, writeBenchRows } from "./bench-rows.ts";
import { connect, loadClient, newPerson } from "./send-load-client.ts";
import type { SubscriberMessage } from "./send-load-subscribers.ts";

const size = (name: string, full: number, smoke: number) =>
  Number(process.env[name] ?? benchSize(full, smoke));
const THREADS = size("SKEIN_LOAD_THREADS", 200, 2);
const MESSAGES = size("SKEIN_LOAD_MESSAGES", 5, 2);
const SUBSCRIBERS = size("SKEIN_LOAD_SUBSCRIBERS", 100, 2);
const IDLE = size("SKEIN_LOAD_IDLE", 20, 2);
/**
 * SKEIN_LOAD_PORTS=1 keeps the project's default port range: each of the first 100 threads then
 * has a PORT of its own and so a `codex app-server` of its own (~180 MB each), as on a server with
 * default settings. Off by default, so every thread shares one runtime and the bench fits a small
 * machine; the acknowledgement path is the same either way.
 */
const PORTS = process.env.SKEIN_LOAD_PORTS === "1";
const ACK_TARGET_MS = 500;
const RATIO_TARGET = 10;
/** A send not answered in this long counts as unanswered (the probe's bound). */
const ACK_TIMEOUT_MS = 30_000;
/** How long the runs may take to finish after the last send is answered. */
const DRAIN_TIMEOUT_MS = 300_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
/** Each model reply streams this many chunks, this far apart: runs last long enough to queue. */
const REPLY = responsesSlowTextReply(["Working ", "on ", "it, ", "done ", "now."], 20);

const here = path.dirname(fileURLToPath(import.meta.url));
const round = (ms: number) => Math.round(ms * 10) / 10;

async function main() {
  const model = await startFakeResponsesServer({ defaultReply: REPLY });
  const home = await createCodexTestHome({ baseUrl: model.url, model: "gpt-5.5" });
  const dataDir = tempDir("skein-load-data-");
  const workspace = tempDir("skein-load-ws-");
  const flags = (process.env.SKEIN_LOAD_SERVER_ARGS ?? "").split(" ").filter(Boolean);
  const server = new ChildServer(
    spawn(process.execPath, [...flags, "--import", TSX_LOADER, "src/main.ts"], {
      cwd: API_DIR,
      env: {
        ...process.env,
        SKEIN_LOG_LEVEL: "warn",
        SKEIN_API_PORT: "0",
        SKEIN_DATA_DIR: dataDir,
        CODEX_HOME: home.dir,
        RUST_LOG: "error",
      },
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
  let subscribers: ReturnType<typeof fork> | null = null;
  try {
    await server.ready;
    const api = loadClient(server.url, ACK_TIMEOUT_MS);
    const projectId = await api.createProject(workspace, PORTS);
    const threads = await Promise.all(
      Array.from({ length: THREADS + IDLE }, (_, i) => api.createThread(projectId, `load ${i}`)),
    );
    const idleThreads = threads.slice(THREADS);
    const loadThreads = threads.slice(0, THREADS);

    const from = await api.headSequence();
    subscribers = fork(
      path.join(here, "send-load-subscribers.ts"),
      [server.url, String(SUBSCRIBERS), String(from)],
      { execArgv: ["--import", TSX_LOADER] },
    );
    const messages = listen(subscribers);
    await messages.next("ready");
    console.error(`[load] ${THREADS + IDLE} threads, ${SUBSCRIBERS} subscribers ready`);

    // Idle: one send at a time, each run finished before the next send.
    const idle: number[] = [];
    const idlePerson = newPerson();
    for (const [i, threadId] of idleThreads.entries()) {
      const ack = await api.send(threadId, `idle ${i}`, idlePerson);
      if (ack.ms === null) throw new Error(`idle send ${i} failed: ${ack.error}`);
      idle.push(ack.ms);
      await messages.finished(i + 1);
    }
    console.error(`[load] idle acks (ms): ${idle.map(round).join(", ")}`);

    // Each person's page is open (its connection made) before they send: opening 100 at once is
    // timed on its own. Under load Node takes one new connection per event-loop turn (libuv), so
    // a burst of new connections then waits in the accept queue: a connect figure, not a send's.
    const people = loadThreads.map(() => newPerson());
    const connectMs = await Promise.all(people.map((person) => connect(server.url, person)));
    console.error(
      `[load] ${people.length} connections opened at once: p50 ${round(percentile(connectMs, 50))} / max ${round(Math.max(...connectMs))} ms`,
    );

    // Load: every thread at once, each thread's messages one after another.
    const loadBefore = loadavg()[0] ?? 0;
    const health = api.probeHealth(100);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    let acked = 0;
    const progress = setInterval(() => {
      const s = Math.round((performance.now() - started) / 1000);
      console.error(
        `[load] ${s} s: ${acked} sends answered, ${messages.finishedRuns()} runs finished`,
      );
    }, 5_000);
    const acks = await Promise.all(
      loadThreads.map(async (threadId, t) => {
        const mine = [];
        const person = people[t]!;
        for (let m = 0; m < MESSAGES; m += 1) {
          mine.push(await api.send(threadId, `t${t} m${m}`, person));
          acked += 1;
        }
        return mine;
      }),
    );
    const sentIn = performance.now() - started;
    // Beyond each person's first: a connection dropped and opened again during the load.
    const connections = people.reduce((sum, person) => sum + person.connections, 0) - people.length;
    for (const person of [...people, idlePerson]) person.agent.destroy();
    // Bounded: a run that never finishes is reported (as not completed), not waited for.
    await Promise.race([messages.finished(IDLE + THREADS * MESSAGES), sleep(DRAIN_TIMEOUT_MS)]);
    const drainedIn = performance.now() - started;
    clearInterval(progress);
    lag.disable();
    const { times: healthMs, failures: healthFailures } = await health.stop();
    const loadAfter = loadavg()[0] ?? 0;

    const all = acks.flat();
    const answered = all.flatMap((a) => (a.ms === null ? [] : [a.ms]));
    const errors = all.flatMap((a) => (a.error === null ? [] : [a.error]));
    const head = await api.headSequence();
    subscribers.send({ type: "check", head });
    const check = await messages.next("checked");
    const unfinished = IDLE + THREADS * MESSAGES - messages.finishedRuns();
    const failed = [
      ...messages.failedRuns(),
      ...(unfinished > 0 ? [`${unfinished} runs not finished`] : []),
    ];
    const server_ = await api.serverFigures();

    const p50 = percentile(answered, 50);
    const p99 = answered.length === all.length ? percentile(answered, 99) : ACK_TIMEOUT_MS;
    const idleMedian = percentile(idle, 50);
    const ratio = p99 / idleMedian;
    const faults = check.missing + check.duplicated + check.outOfOrder;
    const exact =
      faults === 0 && failed.length === 0 && errors.length === 0 && healthFailures.length === 0;
    console.log(
      `[load] ${THREADS} threads × ${MESSAGES} messages (+${IDLE} idle), ${SUBSCRIBERS} subscribers; ` +
        `sends took ${round(sentIn)} ms, all runs finished after ${round(drainedIn)} ms\n` +
        `[load] ack under load p50 ${round(p50)} / p99 ${round(p99)} / max ${round(Math.max(...answered))} ms; ` +
        `idle p50 ${round(idleMedian)} / max ${round(Math.max(...idle))} ms; ratio ${ratio.toFixed(2)}; ` +
        `${errors.length} sends failed or unanswered in ${ACK_TIMEOUT_MS / 1000} s` +
        `, ${connections} connections opened again` +
        `${errors.length ? ` (first: ${errors[0]})` : ""}\n` +
        `[load] health p50 ${round(percentile(healthMs, 50))} / p99 ${round(percentile(healthMs, 99))} ms ` +
        `over ${healthMs.length} probes, ${healthFailures.length} failed` +
        `${healthFailures.length ? ` (first: ${healthFailures[0]})` : ""}\n` +
        `[load] SSE: ${check.events} events × ${SUBSCRIBERS}: ${check.missing} missing, ` +
        `${check.duplicated} duplicated, ${check.outOfOrder} out of order; ${failed.length} runs not completed` +
        `${failed.length ? ` (first: ${failed[0]})` : ""}\n` +
        `[load] server: event loop lag max ${server_.lagMaxMs} ms, CPU ${server_.cpuSeconds} s; ` +
        `load generator lag max ${round(lag.max / 1e6)} ms; machine load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} (2 cores)`,
    );
    writeBenchRows("api-send-load.json", [
      {
        name: "send_ack_p99_ms",
        value: round(p99),
        unit: "ms",
        target: `<= ${ACK_TARGET_MS}`,
        pass: p99 <= ACK_TARGET_MS && exact,
      },
      {
        name: "send_ack_load_ratio",
        value: +ratio.toFixed(2),
        unit: "ratio",
        target: `<= ${RATIO_TARGET}`,
        pass: ratio <= RATIO_TARGET && exact,
      },
    ]);
    if (!exact) process.exitCode = 1;
  } finally {
    subscribers?.kill();
    if (server.child.exitCode === null) server.child.kill("SIGTERM");
    await server.exited;
    await model.close();
    await home.remove();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
}

/** The subscriber process's messages, awaited by type. */
function listen(child: ReturnType<typeof fork>) {
  const inbox: SubscriberMessage[] = [];
  let finished = 0;
  let failed: string[] = [];
  let wake: () => void = () => undefined;
  child.on("message", (message: SubscriberMessage) => {
    if (message.type === "finished") {
      finished = message.runs;
      failed = message.failed;
    } else inbox.push(message);
    wake();
  });
  child.on("exit", (code) => {
    inbox.push({ type: "error", message: `subscriber process exited with ${code}` });
    wake();
  });
  const until = async <T>(found: () => T | undefined): Promise<T> => {
    for (;;) {
      const error = inbox.find((m) => m.type === "error");
      const value = found();
      if (value !== undefined) return value;
      if (error?.type === "error") throw new Error(`subscribers: ${error.message}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  return {
    next: <K extends SubscriberMessage["type"]>(type: K) =>
      until(() => inbox.find((m) => m.type === type) as Extract<SubscriberMessage, { type: K }>),
    finished: (runs: number) => until(() => (finished >= runs ? true : undefined)),
    failedRuns: () => failed,
    finishedRuns: () => finished,
  };
}

await main();
