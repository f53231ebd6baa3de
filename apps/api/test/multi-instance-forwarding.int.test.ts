import type { EventStore } from "@skein/db";
import { type ThreadId, threadStreamId } from "@skein/domain";
import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSkeinClient } from "../src/client.ts";
import { FORWARDED_HEADER } from "../src/http/runtime-remote.ts";
import { refusal } from "./support/errors.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { type PgInstance, startPgInstance } from "./support/pg-instances.ts";
import { scratchSchema } from "./support/postgres.ts";

// Issue 9 on the real PostgreSQL: runtime commands sent to an instance that does not run the
// thread are forwarded to the one that does; an instance whose lease was taken over stops its
// run; recovery stops only dead instances' provider sessions. Two (or three) in-process API
// instances on one schema, sharing the scripted provider as instances share a Codex home.

const LEASE_TTL_MS = 600;
let codex: ScriptedProvider;
let url: string;
const instances: PgInstance[] = [];
const cleanups: (() => unknown)[] = [];

beforeEach(async () => {
  const database = await scratchSchema();
  url = database.url;
  codex = createScriptedProvider({ provider: "codex" });
  cleanups.push(() => database.drop());
});
afterEach(async () => {
  await Promise.allSettled(instances.splice(0).map((instance) => instance.close()));
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(
  id: string,
  wrapStore?: (store: EventStore) => EventStore,
): Promise<PgInstance> {
  const instance = await startPgInstance({
    id,
    url,
    codex,
    leaseTtlMs: LEASE_TTL_MS,
    ...(wrapStore ? { wrapStore } : {}),
  });
  instances.push(instance);
  return instance;
}

async function thread(on: PgInstance, runtimeMode?: "approval-required") {
  const { projectId } = await on.client.project.create.mutate({
    name: "Demo",
    workspaceRoot: process.cwd(),
    // Skein's own checkout: its threads never get worktrees of it (issue 26).
    settings: { threadWorkspace: "local" },
  });
  const { threadId } = await on.client.thread.create.mutate({
    projectId,
    provider: "codex",
    ...(runtimeMode ? { runtimeMode } : {}),
  });
  return threadId;
}

async function runStatus(on: PgInstance, threadId: string, runId: string) {
  const detail = await on.client.thread.detail.query({ threadId });
  return detail.runs.find((run) => run.id === runId)?.status;
}

function threadLog(on: PgInstance, threadId: string) {
  return on.store.readStream(threadStreamId(threadId as ThreadId));
}

/** Waits (up to 30 s) until `by` has taken the thread over and ended the run interrupted. */
function takenOverBy(by: PgInstance, threadId: string, runId: string) {
  return eventually(
    async () => expect(await runStatus(by, threadId, runId)).toBe("interrupted"),
    30_000,
  );
}

/** The thread's events after `sequence`, as `on` reads them. */
async function eventsAfter(on: PgInstance, threadId: string, sequence: number) {
  return (await threadLog(on, threadId)).filter((e) => e.sequence > sequence);
}

const slowReply = (chunks: number) => [
  { type: "text" as const, text: "z".repeat(chunks * 4), chunks, delayMs: 50 },
];

describe("runtime commands reach the instance that runs the thread", () => {
  it("steer and interrupt sent to B are forwarded to A: the steer reaches A's turn, the interrupt ends the run", async () => {
    const [a, b] = [await start("A"), await start("B")];
    const threadId = await thread(a);
    codex.enqueue(slowReply(200));
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "go" });
    // Steering needs the turn to exist natively; until then A answers CONFLICT (through B).
    const steered = await eventually(() =>
      b.client.thread.steer.mutate({ threadId, text: "faster please" }),
    );
    expect(codex.calls.filter((c) => c.op === "steerTurn").map((c) => c.args)).toEqual([
      expect.objectContaining({ text: "faster please" }),
    ]);
    const log = await threadLog(b, threadId);
    const steerEvent = log.find((e) => e.sequence === steered.sequence);
    expect(JSON.stringify(steerEvent?.data)).toContain("faster please");

    const interrupted = await b.client.thread.interrupt.mutate({ threadId });
    expect(interrupted.sequence).toBeGreaterThan(steered.sequence);
    await eventually(async () => expect(await runStatus(b, threadId, runId)).toBe("interrupted"));
    expect(codex.calls.some((c) => c.op === "interruptTurn")).toBe(true);
    expect(b.opened).toHaveLength(0);
    // A refusal from the owner comes back unchanged: nothing left to interrupt.
    const again = await refusal(b.client.thread.interrupt.mutate({ threadId }));
    expect(again).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
    expect(again.message).toMatch(/no active run/);
    // The window that made this flaky, held open: A's lease row still names A (its release has
    // not reached the database) while A itself has let the thread go. B forwards to A, and A
    // answers as a single instance would instead of asking for a retry that cannot succeed.
    await a.store.runtimeLeases.acquire(threadId, "A", 60_000);
    const inWindow = await refusal(b.client.thread.interrupt.mutate({ threadId }));
    expect(inWindow).toMatchObject({ code: "CONFLICT", domainCode: "conflict" });
    expect(inWindow.message).toMatch(/no active run/);
    expect(inWindow.message).not.toMatch(/retry/);
  });

  it("an approval asked on A is answered through B: the run continues on A and completes", async () => {
    const [a, b] = [await start("A"), await start("B")];
    const threadId = await thread(a, "approval-required");
    codex.enqueue([
      { type: "command", command: "rm -rf build", output: "removed", approval: true },
      { type: "text", text: "all clean" },
    ]);
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "clean up" });
    const request = await eventually(async () => {
      const [pending] = (await b.client.thread.detail.query({ threadId })).pendingRequests;
      expect(pending).toBeDefined();
      return pending!;
    });
    await b.client.request.respond.mutate({ requestId: request.id, decision: "accept" });
    await eventually(async () => expect(await runStatus(b, threadId, runId)).toBe("completed"));
    expect(codex.calls.filter((c) => c.op === "respondToRequest")).toHaveLength(1);
    expect(JSON.stringify(await b.client.thread.detail.query({ threadId }))).toContain("all clean");
    expect([a.opened.length, b.opened.length]).toEqual([1, 0]);
  });

  it("a forwarded command is never forwarded again: the receiver answers CONFLICT unless it runs the thread", async () => {
    const [a, b] = [await start("A"), await start("B")];
    const threadId = await thread(a);
    codex.enqueue(slowReply(100));
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "go" });
    await eventually(async () => expect(await runStatus(b, threadId, runId)).toBe("running"));
    const head = await b.store.headSequence();
    const asForwarded = createSkeinClient({
      url: b.server.url,
      headers: { [FORWARDED_HEADER]: "X" },
    });
    const refused = await refusal(asForwarded.thread.interrupt.mutate({ threadId }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toMatch(/Skein instance B, which does not hold its runtime/);
    expect(refused.message).toMatch(/instance A does/);
    // A's turn streams on (its items keep coming); the interrupt was not applied anywhere.
    const since = (await threadLog(b, threadId)).filter((e) => e.sequence > head);
    expect(since.map((e) => e.type).filter((type) => /Interrupt|Run[A-Z]/.test(type))).toEqual([]);
    expect(await runStatus(b, threadId, runId)).toBe("running");
    await a.client.thread.interrupt.mutate({ threadId });
  });
});

describe("an instance that lost its lease mid-run", () => {
  it("stops its turn and appends nothing more for the run once another instance took it over", async () => {
    const [a, b] = [await start("A"), await start("B")];
    const threadId = await thread(a);
    // 50 s of reply: still running whenever B takes over, however loaded the machine is.
    codex.enqueue(slowReply(1_000));
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "long job" });
    await eventually(async () => {
      const deltas = (await threadLog(b, threadId)).filter((e) => e.type === "ItemDeltaAppended");
      expect(deltas.length).toBeGreaterThan(3);
    });
    // A hangs (no renewals); B takes the thread over and ends the run interrupted.
    a.orchestrator.stopLeaseRenewal();
    await takenOverBy(b, threadId, runId);
    const recovered = (await threadLog(b, threadId)).find((e) => e.type === "RunRecovered");
    expect(recovered).toBeDefined();
    // A comes back, learns the lease is gone and aborts its turn.
    a.orchestrator.resumeLeaseRenewal();
    await eventually(() => expect(codex.calls.some((c) => c.op === "interruptTurn")).toBe(true));
    await a.orchestrator.waitForRun(runId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsAfter(b, threadId, recovered!.sequence)).toEqual([]);
    expect(await runStatus(a, threadId, runId)).toBe("interrupted");

    // The thread carries on at B, which holds it now.
    const next = await b.client.thread.sendMessage.mutate({ threadId, text: "on B" });
    await eventually(async () =>
      expect(await runStatus(b, threadId, next.runId)).toBe("completed"),
    );
    expect(b.opened).toHaveLength(1);
  });

  it("takes the thread over even while the hung instance keeps streaming fast", async () => {
    const [a, b] = [await start("A"), await start("B")];
    const threadId = await thread(a);
    // Deltas every few milliseconds: without the store's lease fence B's interrupt lost every
    // race against A's appends and the run stayed "running".
    codex.enqueue([{ type: "text", text: "z".repeat(40_000), chunks: 10_000, delayMs: 2 }]);
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "flood" });
    await eventually(async () => expect(await runStatus(b, threadId, runId)).toBe("running"));
    a.orchestrator.stopLeaseRenewal();
    await takenOverBy(b, threadId, runId);
    const recovered = (await threadLog(b, threadId)).find((e) => e.type === "RunRecovered")!;
    // A learns it from its next refused append (its renewal is still off) and stops its turn.
    await eventually(() => expect(codex.calls.some((c) => c.op === "interruptTurn")).toBe(true));
    await a.orchestrator.waitForRun(runId);
    expect(await eventsAfter(b, threadId, recovered.sequence)).toEqual([]);
  });
});

describe("a takeover whose interrupt fails", () => {
  it("is tried again by the sweep: the run ends interrupted instead of staying running", async () => {
    const failing = failFirstAppendOf("RunRecovered");
    const [a, b] = [await start("A"), await start("B", failing.wrap)];
    const threadId = await thread(a);
    codex.enqueue(slowReply(1_000));
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "long job" });
    await eventually(async () => expect(await runStatus(b, threadId, runId)).toBe("running"));
    a.orchestrator.stopLeaseRenewal();
    await eventually(() => expect(failing.failed).toBe(true), 30_000);
    // B gave the lease up after the failed append; its sweep takes the thread again.
    await takenOverBy(b, threadId, runId);
    const recovered = (await threadLog(b, threadId)).filter((e) => e.type === "RunRecovered");
    expect(recovered).toHaveLength(1);
    a.orchestrator.resumeLeaseRenewal();
    await a.orchestrator.waitForRun(runId);
  });
});

/** A store wrapper whose first append holding a `type` event fails as a lost connection would. */
function failFirstAppendOf(type: string) {
  const state = { failed: false, wrap: (store: EventStore) => store };
  state.wrap = (store) =>
    new Proxy(store, {
      get(target, property) {
        if (property === "append") {
          return async (...args: Parameters<EventStore["append"]>) => {
            if (!state.failed && args[2].some((event) => event.type === type)) {
              state.failed = true;
              throw new Error("connection to the database was lost");
            }
            return target.append(...args);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return state;
}

describe("an instance that lost its lease while its turn waits", () => {
  it("learns it from its renewal, interrupts the waiting turn and appends nothing", async () => {
    const [a, b] = [await start("A"), await start("B")];
    const threadId = await thread(a, "approval-required");
    codex.enqueue([{ type: "command", command: "make", output: "", approval: true }]);
    const { runId } = await a.client.thread.sendMessage.mutate({ threadId, text: "build" });
    await eventually(async () => expect(await runStatus(b, threadId, runId)).toBe("waiting"));
    a.orchestrator.stopLeaseRenewal();
    await takenOverBy(b, threadId, runId);
    const recovered = (await threadLog(b, threadId)).find((e) => e.type === "RunRecovered")!;
    // Nothing streams while the turn waits, so only the renewal can tell A.
    expect(codex.calls.some((c) => c.op === "interruptTurn")).toBe(false);
    a.orchestrator.resumeLeaseRenewal();
    await eventually(() => expect(codex.calls.some((c) => c.op === "interruptTurn")).toBe(true));
    await a.orchestrator.waitForRun(runId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await eventsAfter(b, threadId, recovered.sequence)).toEqual([]);
  });
});

describe("provider session owners", () => {
  /** Each instance runs one message, so each opens (and owns) one provider session. */
  async function sessionOnEach(...on: PgInstance[]) {
    for (const instance of on) {
      const threadId = await thread(instance);
      const { runId } = await instance.client.thread.sendMessage.mutate({ threadId, text: "hi" });
      await eventually(async () =>
        expect(await runStatus(instance, threadId, runId)).toBe("completed"),
      );
    }
  }

  /** Session status by owner (each owner has one session here). */
  async function sessions(on: PgInstance) {
    const { data } = await on.store.snapshot((q) => q.list("provider_sessions"));
    return Object.fromEntries(
      data.map((row) => [(row.data as { owner: string }).owner, row.status]),
    );
  }

  it("recovery at start stops its previous incarnation's sessions, never a live instance's", async () => {
    const [a, b] = [await start("A"), await start("B")];
    await sessionOnEach(a, b);
    expect(await sessions(b)).toEqual({ A: "ready", B: "ready" });
    // A is killed and restarts at once under the same id, while its presence row is still live.
    a.orchestrator.stopLeaseRenewal();
    await start("A");
    expect(await sessions(b)).toEqual({ A: "stopped", B: "ready" });
  });

  it("a dead instance's sessions are stopped once its presence expires; an instance starting later leaves live ones alone", async () => {
    const [a, b] = [await start("A"), await start("B")];
    await sessionOnEach(a, b);
    a.orchestrator.stopLeaseRenewal();
    // B's lease sweep notices A's presence row expired.
    await eventually(async () => expect(await sessions(b)).toEqual({ A: "stopped", B: "ready" }));
    await start("C");
    expect(await sessions(b)).toEqual({ A: "stopped", B: "ready" });
  });
});
