import { execFileSync, spawn as spawnProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import type { RouterOutputs } from "@skein/contract";
import { API_DIR, ChildServer, spawnEntry } from "./support/child-server.ts";
import { scratchSchema } from "./support/postgres.ts";
import { Recorder } from "./support/recorder.ts";
import { tempDir } from "./support/test-server.ts";

type DetailSnapshot = RouterOutputs["thread"]["detail"];

/** A service outside the workspace's TypeScript: plain JavaScript importing @skein/client. */
const WATCH_THREAD_EXAMPLE = path.resolve(API_DIR, "../../examples/watch-thread/watch-thread.mjs");
const children: ChildServer[] = [];
const dirs: string[] = [];
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  for (const server of children.splice(0)) {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await server.exited;
  }
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function spawn(entry: string, env: Record<string, string>): ChildServer {
  const server = spawnEntry(entry, env);
  children.push(server);
  return server;
}

function dataDir(): string {
  const dir = tempDir("skein-proc-");
  dirs.push(dir);
  return dir;
}

describe("pnpm --filter @skein/api start (src/main.ts)", () => {
  it("refuses a non-loopback host without a token, with a clear message", async () => {
    const server = spawn("src/main.ts", { SKEIN_HOST: "0.0.0.0", SKEIN_DATA_DIR: dataDir() });
    expect(await server.exited).toBe(78);
    expect(server.stderr).toMatch(/refusing to start: SKEIN_HOST=0\.0\.0\.0 .*SKEIN_API_TOKEN/s);
  });

  it("B18 refuses to start on a SKEIN_ACP_AGENTS entry without a usable id, in words", async () => {
    const server = spawn("src/main.ts", {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: dataDir(),
      SKEIN_ACP_AGENTS: '[{"id":"ok-agent","command":"sh"},{"command":"sh"}]',
    });
    expect(await server.exited).toBe(78);
    expect(server.stderr).toMatch(/refusing to start: SKEIN_ACP_AGENTS\[1\]: id must be/);
  });

  it("starts on PostgreSQL when SKEIN_DATABASE_URL says so (schema migrated on open)", async () => {
    const database = await scratchSchema();
    cleanups.push(() => database.drop());
    const server = spawn("src/main.ts", {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: dataDir(),
      SKEIN_DATABASE_URL: database.url,
    });
    await server.ready;
    const client = createSkeinClient({ url: server.url });
    expect(await client.health.query()).toMatchObject({ ok: true, sequence: 0 });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });

  it("starts (migrations applied), prints its URLs, serves /healthz, stops on SIGTERM", async () => {
    const server = spawn("src/main.ts", { SKEIN_API_PORT: "0", SKEIN_DATA_DIR: dataDir() });
    await server.ready;
    const res = await fetch(`${server.url}/healthz`);
    expect(await res.json()).toEqual({ ok: true });
    const health = await createSkeinClient({ url: server.url }).health.query();
    expect(health).toMatchObject({ ok: true, sequence: 0 });
    expect(server.stderr).toMatch(/Data\s+\//);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  });
});

describe("pnpm start: the API as built JavaScript under plain node", () => {
  it("scripts/build.mjs bundles src/main.ts into dist/main.js, which starts, serves /healthz and stops on SIGTERM", async () => {
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: API_DIR, stdio: "ignore" });
    const server = new ChildServer(
      spawnProcess(process.execPath, ["dist/main.js"], {
        cwd: API_DIR,
        env: {
          ...process.env,
          SKEIN_LOG_LEVEL: "warn",
          SKEIN_API_PORT: "0",
          SKEIN_DATA_DIR: dataDir(),
        },
        stdio: ["ignore", "ignore", "pipe"],
      }),
    );
    children.push(server);
    await server.ready;
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true });
    const health = await createSkeinClient({ url: server.url }).health.query();
    expect(health).toMatchObject({ ok: true, version: "0.1.0", sequence: 0 });
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
  }, 60_000);
});

describe("a separate process with only the built client", () => {
  it("B12: examples/watch-thread runs under plain node (the built client, no TypeScript loader): it watches a run, drops mid-run and resumes with Last-Event-ID", async () => {
    const dir = dataDir();
    const server = spawn("test/fixtures/scripted-skein.ts", {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: dir,
    });
    await server.ready;
    const { execFile } = await import("node:child_process");
    // Plain node, no loader: the example imports @skein/client's built JavaScript.
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [WATCH_THREAD_EXAMPLE, server.url],
        // The example uses its working directory as the project's workspace: keep it scratch,
        // and outside the data dir, which no workspace may be (B4).
        { cwd: dataDir(), timeout: 60_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      );
    });
    expect(stdout).toMatch(/^connected to Skein 0\.1\.0/);
    expect(stdout).toMatch(/snapshot @\d+: [01] runs/);
    const dropped = /disconnected after @(\d+) \(\d+ events, [3-9]\d* deltas\)/.exec(stdout);
    expect(dropped, stdout).not.toBeNull();
    expect(stdout).toContain(`resuming with Last-Event-ID ${dropped?.[1]}`);
    // Only this thread writes during the run, so the resumed watch starts at the next sequence.
    expect(stdout).toContain(`first event after the resume: @${Number(dropped?.[1]) + 1}`);
    expect(stdout).toMatch(/resumed: \d+ events \(\d+ deltas\), 0 already seen before the drop/);
    expect(stdout).toMatch(/event {4}@\d+: RunFinished/);
    expect(stdout).toContain("run completed on codex");
    expect(stdout).toContain("assistant: 1600 characters");
  }, 90_000);

  it("SIGKILL during a run, restart: the run ends interrupted, nothing committed is lost, subscribers resume", async () => {
    const dir = dataDir();
    const first = spawn("test/fixtures/scripted-skein.ts", {
      SKEIN_API_PORT: "0",
      SKEIN_DATA_DIR: dir,
    });
    await first.ready;
    const client = createSkeinClient({ url: first.url });
    const { projectId } = await client.project.create.mutate({
      name: "p",
      workspaceRoot: dataDir(),
    });
    const { threadId } = await client.thread.create.mutate({ projectId });
    const recorder = new Recorder<DetailSnapshot>();
    const sub = client.thread.watchDetail.subscribe({ threadId }, recorder.handlers);
    cleanups.push(() => sub.unsubscribe());
    await recorder.until(() => recorder.snapshots.length === 1);
    const from = recorder.snapshots[0]!.snapshotSequence;

    const { runId } = await client.thread.sendMessage.mutate({ threadId, text: "slow reply" });
    await recorder.until(
      () => recorder.events.filter((e) => e.type === "ItemDeltaAppended").length >= 5,
      15_000,
      "streaming deltas",
    );
    first.child.kill("SIGKILL");
    await first.exited;
    const beforeKill = recorder.events.map((e) => e.sequence);

    const second = spawn("test/fixtures/scripted-skein.ts", {
      SKEIN_API_PORT: String(first.port),
      SKEIN_DATA_DIR: dir,
    });
    await second.ready;
    // The same subscription reconnects on its own (Last-Event-ID) and sees the recovery.
    await recorder.until(
      () =>
        recorder.events.some(
          (e) =>
            (e.data as { runId?: string } | undefined)?.runId === runId &&
            (e.type === "RunRecovered" || e.type === "RunFinished"),
        ),
      20_000,
      "the run to end after the restart",
    );
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.runs.find((run) => run.id === runId)?.status).toBe("interrupted");

    const log = new Recorder<{ snapshotSequence: number }>();
    const logSub = client.events.watch.subscribe({ threadId, lastEventId: "0" }, log.handlers);
    cleanups.push(() => logSub.unsubscribe());
    const last = recorder.events.at(-1)!.sequence;
    await log.until(() => log.events.at(-1)?.sequence === last, 10_000, "the log");
    const committed = log.events.map((e) => e.sequence);
    expect(committed).toEqual(expect.arrayContaining(beforeKill));
    expect(recorder.events.map((e) => e.sequence)).toEqual(committed.filter((s) => s > from));
    expect(recorder.snapshots).toHaveLength(1);
  }, 60_000);
});
