import fs from "node:fs";
import { openEventStore } from "@skein/db";
import { afterEach, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import type { RouterOutputs } from "@skein/contract";
import { type ChildServer, spawnEntry } from "./support/child-server.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { scratchSchema } from "./support/postgres.ts";
import { refusal } from "./support/errors.ts";
import { Recorder } from "./support/recorder.ts";
import { tempDir } from "./support/test-server.ts";

// Two API processes (the real env.ts → store → orchestrator → recover → HTTP path, scripted
// providers) on one PostgreSQL schema, sharing an API token; a steer sent to B is forwarded to A
// (each advertises its own URL); instance A is SIGKILLed mid-run.

const TOKEN = "multi-instance-process-token";

type DetailSnapshot = RouterOutputs["thread"]["detail"];

const children: ChildServer[] = [];
const cleanups: (() => unknown)[] = [];

afterEach(async () => {
  for (const server of children.splice(0)) {
    if (server.child.exitCode === null) server.child.kill("SIGKILL");
    await server.exited;
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function spawnInstance(id: string, databaseUrl: string): ChildServer {
  const dataDir = tempDir(`skein-pg-${id}-`);
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server = spawnEntry("test/fixtures/scripted-skein.ts", {
    SKEIN_API_PORT: "0",
    SKEIN_DATA_DIR: dataDir,
    SKEIN_DATABASE_URL: databaseUrl,
    SKEIN_INSTANCE_ID: id,
    // Long enough that A's lease is still live right after A is killed (then B cannot forward).
    SKEIN_LEASE_TTL_MS: "3000",
    SKEIN_API_TOKEN: TOKEN,
  });
  children.push(server);
  return server;
}

describe("two API processes on one PostgreSQL database", () => {
  it("B's subscriber follows A's run live; B forwards a steer to A; A is SIGKILLed mid-run: B names A and appends nothing until A's lease expires, then the run ends interrupted and B runs the next message", async () => {
    const database = await scratchSchema();
    cleanups.push(() => database.drop());
    const a = spawnInstance("A", database.url);
    const b = spawnInstance("B", database.url);
    await Promise.all([a.ready, b.ready]);
    const onA = createSkeinClient({ url: a.url, token: TOKEN });
    const onB = createSkeinClient({ url: b.url, token: TOKEN });
    const log = await openEventStore({ url: database.url, pollIntervalMs: 100 });
    cleanups.push(() => log.close());
    const { projectId } = await onA.project.create.mutate({ name: "p", workspaceRoot: tempDir() });
    const { threadId } = await onA.thread.create.mutate({ projectId });
    const recorder = new Recorder<DetailSnapshot>();
    const sub = onB.thread.watchDetail.subscribe({ threadId }, recorder.handlers);
    cleanups.push(() => sub.unsubscribe());
    await recorder.until(() => recorder.snapshots.length === 1);

    const { runId } = await onA.thread.sendMessage.mutate({ threadId, text: "slow reply" });
    await recorder.until(
      () => recorder.events.filter((e) => e.type === "ItemDeltaAppended").length >= 5,
      15_000,
      "A's deltas, seen on B",
    );
    const steered = await onB.thread.steer.mutate({ threadId, text: "steered via B" });
    await recorder.until(
      () => recorder.events.some((e) => e.sequence === steered.sequence),
      15_000,
      "the steer A recorded",
    );
    a.child.kill("SIGKILL");
    await a.exited;
    const head = await log.headSequence();
    const refused = await refusal(onB.thread.interrupt.mutate({ threadId }));
    expect(refused.code).toBe("SERVICE_UNAVAILABLE");
    expect(refused.message).toMatch(/runs on Skein instance A, but it could not be reached/);
    expect(await log.headSequence()).toBe(head);

    await recorder.until(
      () =>
        recorder.events.some(
          (e) => e.type === "RunRecovered" && (e.data as { runId?: string })?.runId === runId,
        ),
      15_000,
      "B to recover A's run once its lease expired",
    );
    const sequences = recorder.events.map((e) => e.sequence);
    expect(sequences).toEqual([...sequences].sort((x, y) => x - y));
    expect(new Set(sequences).size).toBe(sequences.length);
    const detail = await onB.thread.detail.query({ threadId });
    expect(detail.runs.find((run) => run.id === runId)?.status).toBe("interrupted");

    const next = await onB.thread.sendMessage.mutate({ threadId, text: "after A died" });
    await eventually(async () => {
      const after = await onB.thread.detail.query({ threadId });
      expect(after.runs.find((run) => run.id === next.runId)?.status).toBe("completed");
    }, 15_000);
  });
});
