import net from "node:net";
import { threadStreamId } from "@skein/domain";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RouterOutputs } from "@skein/contract";
import { eventually } from "./support/orchestrator-harness.ts";
import { type PgInstance, startPgInstance } from "./support/pg-instances.ts";
import { scratchSchema } from "./support/postgres.ts";
import { refusal } from "./support/errors.ts";
import { Recorder } from "./support/recorder.ts";

// Issue 9 acceptance on the real PostgreSQL, with two in-process API instances (each its own
// store connections, orchestrator, HTTP server) on one schema and the scripted provider. Instance
// death is simulated by stopping A's lease renewal: A stays blocked on an approval nobody answers
// and writes nothing more, as a killed process would.

type DetailSnapshot = RouterOutputs["thread"]["detail"];

const LEASE_TTL_MS = 600;
let codex: ScriptedProvider;
let a: PgInstance;
let b: PgInstance;
const cleanups: (() => unknown)[] = [];

/** Replies with the native thread's earlier inputs, so a resumed thread proves its history. */
function historyReply(context: {
  input: { text: string };
  history: ReadonlyArray<{ input: { text: string } }>;
}) {
  const earlier = context.history.map((turn) => turn.input.text).join(" | ");
  return [{ type: "text" as const, text: `history [${earlier}] now ${context.input.text}` }];
}

beforeEach(async () => {
  const database = await scratchSchema();
  codex = createScriptedProvider({ provider: "codex", reply: historyReply });
  a = await startPgInstance({ id: "A", url: database.url, codex, leaseTtlMs: LEASE_TTL_MS });
  b = await startPgInstance({ id: "B", url: database.url, codex, leaseTtlMs: LEASE_TTL_MS });
  cleanups.push(() => database.drop());
});
afterEach(async () => {
  await Promise.allSettled([a?.close(), b?.close()]);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function thread(on: PgInstance, runtimeMode?: "approval-required") {
  const { projectId } = await on.client.project.create.mutate({
    name: "Demo",
    workspaceRoot: process.cwd(),
    // Skein's own checkout: its threads never get worktrees of it (issue 26).
    settings: { threadWorkspace: "local" },
  });
  return on.client.thread.create.mutate({
    projectId,
    provider: "codex",
    ...(runtimeMode ? { runtimeMode } : {}),
  });
}

async function runStatus(on: PgInstance, threadId: string, runId: string) {
  const detail = await on.client.thread.detail.query({ threadId });
  return detail.runs.find((run) => run.id === runId)?.status;
}

/** A URL on this machine where nothing listens (a port just freed). */
async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** Both instances answer `thread.detail` identically once B's feed has caught up. */
async function expectSameDetail(threadId: string) {
  await eventually(async () => {
    const [onA, onB] = await Promise.all([
      a.client.thread.detail.query({ threadId }),
      b.client.thread.detail.query({ threadId }),
    ]);
    expect(onB).toEqual(onA);
  });
}

describe("two API instances on one PostgreSQL database", () => {
  it("a subscriber on B sees, live and in order, a run that executes on A; detail reads the same", async () => {
    const { threadId } = await thread(a);
    const recorder = new Recorder<DetailSnapshot>();
    const sub = b.client.thread.watchDetail.subscribe({ threadId }, recorder.handlers);
    cleanups.push(() => sub.unsubscribe());
    await recorder.until(() => recorder.snapshots.length === 1);

    codex.enqueue([{ type: "text", text: "hello from A", chunks: 4 }]);
    const sent = await a.client.thread.sendMessage.mutate({ threadId, text: "hi" });
    await recorder.until(
      () =>
        recorder.events.some(
          (e) => e.type === "RunFinished" && (e.data as { runId?: string })?.runId === sent.runId,
        ),
      15_000,
      "the run to finish, seen from B",
    );
    expect(a.opened).toHaveLength(1);
    expect(b.opened).toHaveLength(0);
    expect(await runStatus(b, threadId, sent.runId)).toBe("completed");
    // Exactly the thread's events after B's snapshot, in sequence order, none missing.
    const sequences = recorder.events.map((e) => e.sequence);
    const log = await b.store.readStream(
      threadStreamId(threadId as Parameters<typeof threadStreamId>[0]),
      recorder.snapshots[0]!.snapshotSequence,
    );
    expect(sequences).toEqual(log.map((e) => e.sequence).slice(0, sequences.length));
    expect(sequences.length).toBeGreaterThan(4);
    await expectSameDetail(threadId);
  });

  it("the same command id sent to both instances gives one set of events and one receipt", async () => {
    const { projectId } = await a.client.project.create.mutate({
      name: "Demo",
      workspaceRoot: process.cwd(),
      // Skein's own checkout: its threads never get worktrees of it (issue 26).
      settings: { threadWorkspace: "local" },
    });
    const createId = "cmd_create_thread_twice";
    const created = await Promise.all(
      [a, b].map((on) =>
        on.client.thread.create.mutate({ projectId, provider: "codex", commandId: createId }),
      ),
    );
    expect(created[1]!.threadId).toBe(created[0]!.threadId);
    const threadId = created[0]!.threadId;
    const sendId = "cmd_send_message_twice";
    const sent = await Promise.all(
      [a, b].map((on) =>
        on.client.thread.sendMessage.mutate({ threadId, text: "once", commandId: sendId }),
      ),
    );
    expect(sent[1]!.runId).toBe(sent[0]!.runId);
    await eventually(async () =>
      expect(await runStatus(a, threadId, sent[0]!.runId)).toBe("completed"),
    );
    const all = await a.store.readAll(0);
    expect(all.filter((e) => e.commandId === createId).length).toBeGreaterThan(0);
    const sendEvents = all.filter((e) => e.commandId === sendId);
    expect(new Set(sendEvents.map((e) => e.streamId)).size).toBe(1);
    const detail = await b.client.thread.detail.query({ threadId });
    expect(detail.runs).toHaveLength(1);
    expect(sendEvents.length).toBeGreaterThan(0);
  });

  it("a stale cache meets another instance's append: the command re-decides on fresh state", async () => {
    const { threadId } = await thread(a);
    // B caches the thread at its current version; A then appends to it.
    const onB = await b.client.thread.sendMessage.mutate({ threadId, text: "from B" });
    await eventually(async () => expect(await runStatus(a, threadId, onB.runId)).toBe("completed"));
    const onA = await a.client.thread.sendMessage.mutate({ threadId, text: "from A" });
    await eventually(async () => expect(await runStatus(b, threadId, onA.runId)).toBe("completed"));
    // B's cached version is stale now: the append conflicts, B reloads and decides again.
    const again = await b.client.thread.sendMessage.mutate({ threadId, text: "B again" });
    await eventually(async () =>
      expect(await runStatus(a, threadId, again.runId)).toBe("completed"),
    );
    // Re-deciding uses the domain's rules on fresh state: once A archives the thread, B's stale
    // view (not archived) must not let a message through.
    await a.client.thread.archive.mutate({ threadId });
    const refused = await refusal(b.client.thread.sendMessage.mutate({ threadId, text: "late" }));
    expect(refused.message).toMatch(/archived/);
    const detail = await b.client.thread.detail.query({ threadId });
    expect(detail.runs.map((run) => run.status)).toEqual(["completed", "completed", "completed"]);
  });

  it("A dies mid-run: B cannot forward A's runtime commands, then interrupts the run once A's lease expires and resumes the thread with its history", async () => {
    const { threadId } = await thread(a, "approval-required");
    const first = await a.client.thread.sendMessage.mutate({ threadId, text: "first" });
    await eventually(async () =>
      expect(await runStatus(a, threadId, first.runId)).toBe("completed"),
    );
    codex.enqueue([{ type: "command", command: "rm -rf build", output: "", approval: true }]);
    const blocked = await a.client.thread.sendMessage.mutate({ threadId, text: "clean up" });
    const request = await eventually(async () => {
      const detail = await b.client.thread.detail.query({ threadId });
      const [pending] = detail.pendingRequests;
      expect(pending).toBeDefined();
      return pending!;
    });

    // A's lease is live but A cannot be reached (its advertised address no longer answers):
    // B forwards nothing, says which instance runs the thread, and appends nothing.
    await a.orchestrator.advertise(await closedPortUrl());
    const head = await b.store.headSequence();
    for (const call of [
      b.client.thread.interrupt.mutate({ threadId }),
      b.client.thread.steer.mutate({ threadId, text: "faster" }),
      b.client.request.respond.mutate({ requestId: request.id, decision: "accept" }),
    ]) {
      const refused = await refusal(call);
      expect(refused.code).toBe("SERVICE_UNAVAILABLE");
      expect(refused.message).toMatch(/runs on Skein instance A, but it could not be reached/);
    }
    expect(await b.store.headSequence()).toBe(head);
    expect(await runStatus(b, threadId, blocked.runId)).toBe("waiting");

    a.orchestrator.stopLeaseRenewal();
    await eventually(
      async () => expect(await runStatus(b, threadId, blocked.runId)).toBe("interrupted"),
      10_000,
    );
    const next = await b.client.thread.sendMessage.mutate({ threadId, text: "after A died" });
    await eventually(async () =>
      expect(await runStatus(b, threadId, next.runId)).toBe("completed"),
    );
    expect(b.opened).toHaveLength(1);
    const starts = codex.calls.filter((c) => c.op === "startTurn");
    const refs = new Set(
      starts.map((c) => (c.args as { nativeThreadRef: string }).nativeThreadRef),
    );
    expect(refs.size).toBe(1);
    const resumed = codex.calls.filter((c) => c.op === "resumeThread");
    expect(resumed).toHaveLength(1);
    expect((resumed[0]!.args as { nativeThreadRef: string }).nativeThreadRef).toBe([...refs][0]);
    const detail = await b.client.thread.detail.query({ threadId });
    const reply = JSON.stringify(detail);
    expect(reply).toMatch(/history \[first[^\]]*\] now after A died/);
    await expectSameDetail(threadId);
  });
});
