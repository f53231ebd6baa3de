import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import {
  type CheckpointId,
  createSequentialIds,
  type RunId,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import { createScriptedProvider, type ScriptContext } from "@skein/scripted-provider";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../src/orchestrator/commands/command-gate.ts";
import { createOrchestrator, type Orchestrator } from "../src/orchestrator/index.ts";
import { eventually } from "./support/orchestrator-harness.ts";

/**
 * B3/S4 as a property: a random sequence of commands whose command ids are drawn from a small
 * pool (so ids come back with the same payload, another payload, another procedure, in any
 * order) leaves the workspace files, what the provider's threads hold and the log exactly as
 * the same sequence applied once — with every reuse of an applied id left out.
 */

/** `twice`: the full world sends the step twice at once (a client retrying before the answer). */
type Step = { id: number; twice: boolean } & (
  | { kind: "send"; thread: number; text: string }
  | { kind: "rollback"; thread: number; run: number }
  | { kind: "fork"; thread: number }
);

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("send" as const),
      thread: fc.nat(3),
      text: fc.constantFrom("alpha", "beta", "gamma"),
      id: fc.nat(4),
      twice: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("rollback" as const),
      thread: fc.nat(3),
      run: fc.nat(3),
      id: fc.nat(4),
      twice: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("fork" as const),
      thread: fc.nat(3),
      id: fc.nat(4),
      twice: fc.boolean(),
    }),
  },
);

type World = {
  store: SqliteEventStore;
  orchestrator: Orchestrator;
  workspace: string;
  dataDir: string;
  threads: ThreadId[];
  /** What each provider turn saw: its native thread, the history before it, its input. */
  turns: string[];
  nativeHistory(): Promise<string[]>;
  close(): Promise<void>;
};

async function openWorld(): Promise<World> {
  const dataDir = mkdtempSync(join(tmpdir(), "skein-prop-data-"));
  const workspace = mkdtempSync(join(tmpdir(), "skein-prop-ws-"));
  const store = openSqliteEventStore({ dataDir });
  const turns: string[] = [];
  const reply = (context: ScriptContext) => {
    turns.push(
      JSON.stringify([
        context.nativeThreadRef,
        context.history.map((turn) => turn.input.text),
        context.input.text,
      ]),
    );
    return [
      { type: "file_change" as const, path: "f.txt", diff: "", content: `${context.input.text}\n` },
      { type: "text" as const, text: `ok ${context.input.text}` },
    ];
  };
  const codex = createScriptedProvider({ provider: "codex", reply });
  const orchestrator = await createOrchestrator({
    store,
    adapters: { codex },
    dataDir,
    ids: createSequentialIds("p"),
    sessionIdleMs: 0,
  });
  const { projectId } = await orchestrator.createProject({
    name: "prop",
    workspaceRoot: workspace,
  });
  const { threadId } = await orchestrator.createThread({ projectId });
  const world: World = {
    store,
    orchestrator,
    workspace,
    dataDir,
    threads: [threadId],
    turns,
    async nativeHistory() {
      const out: string[] = [];
      for (const thread of world.threads) {
        const state = await orchestrator.repository.thread(thread);
        for (const pt of state.providerThreads.values()) {
          if (!pt.nativeThreadRef || pt.status === "closed") continue;
          const session = codex.sessions.at(-1)!;
          const history = await session.readHistory(pt.nativeThreadRef);
          out.push(JSON.stringify([pt.id, history.map((turn) => turn.userText)]));
        }
      }
      return out;
    },
    async close() {
      await orchestrator.shutdown();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
  return world;
}

type Call = { procedure: string; payload: Record<string, unknown>; run: () => Promise<unknown> };

/** The concrete call a step makes in this world's current state (null: nothing to call). */
async function callFor(world: World, step: Step, commandId: string): Promise<Call | null> {
  const o = world.orchestrator;
  const threadId = world.threads[step.thread % world.threads.length]!;
  if (step.kind === "send") {
    const payload = { threadId, text: step.text };
    return {
      procedure: "thread.sendMessage",
      payload,
      run: async () => {
        const answer = await o.sendMessage({ ...payload, commandId });
        await settle(world, threadId, answer.runId);
        return answer;
      },
    };
  }
  if (step.kind === "fork") {
    const payload = { threadId, isolatedWorkspace: false };
    return {
      procedure: "thread.fork",
      payload,
      run: async () => {
        const answer = await o.forkThread({ ...payload, commandId });
        if (!world.threads.includes(answer.threadId)) world.threads.push(answer.threadId);
        return answer;
      },
    };
  }
  const state = await o.repository.thread(threadId);
  const checkpoints = checkpointsOf(state);
  if (checkpoints.length === 0) return null;
  const checkpointId = checkpoints[step.run % checkpoints.length]!;
  const payload = { threadId, checkpointId };
  return {
    procedure: "thread.rollback",
    payload,
    run: () => o.rollback({ ...payload, commandId }),
  };
}

function checkpointsOf(state: ThreadState): CheckpointId[] {
  return [...state.checkpoints.values()]
    .filter((c) => c.runId !== null)
    .map((c) => c.id as CheckpointId)
    .sort();
}

/** A run has ended and its checkpoint is recorded (so the log's order is the same every time). */
async function settle(world: World, threadId: ThreadId, runId: RunId): Promise<void> {
  await world.orchestrator.waitForRun(runId);
  await eventually(async () => {
    const state = await world.orchestrator.repository.thread(threadId);
    if (![...state.checkpoints.values()].some((c) => c.runId === runId)) {
      throw new Error(`run ${runId} has no checkpoint yet`);
    }
  });
}

type Outcome = { ok: true; answer: unknown } | { ok: false; code: string };

async function attempt(call: Call): Promise<Outcome> {
  try {
    return { ok: true, answer: await call.run() };
  } catch (error) {
    return { ok: false, code: (error as { code?: string }).code ?? String(error) };
  }
}

/** Files of the workspace, by relative path. */
function files(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    out[full.slice(root.length)] = readFileSync(full, "utf8");
  }
  return out;
}

/** The log without what differs between two worlds by construction: clocks, paths, git shas. */
async function log(world: World): Promise<unknown[]> {
  const events = await world.store.readAll(0);
  return events.map((event) => {
    const text = JSON.stringify(event.data)
      .replaceAll(world.workspace, "<ws>")
      .replaceAll(world.dataDir, "<data>")
      .replace(/\b[0-9a-f]{40}\b/g, "<sha>");
    return [event.streamId, event.type, event.commandId, stripTimes(JSON.parse(text))];
  });
}

function stripTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripTimes);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key]) => key !== "at" && !key.endsWith("At") && key !== "durationMs")
      .map(([key, v]) => [key, stripTimes(v)]),
  );
}

describe("B3/S4: command ids reused at random leave one application's effects", () => {
  it("B3: files, provider thread history and log equal the sequence applied once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 3, maxLength: 9 }), async (steps) => {
        const full = await openWorld();
        const once = await openWorld();
        try {
          // What each applied id answered, in the full world: the binding and the answer.
          const applied = new Map<string, { binding: string; answer: unknown }>();
          // Ids the once-world applied: their later steps are left out there.
          const onceApplied = new Set<string>();
          for (const step of steps) {
            const commandId = `cmd_prop_${step.id}`;
            const call = await callFor(full, step, commandId);
            const known = applied.get(commandId);
            if (call) {
              const binding = canonicalJson([call.procedure, call.payload]);
              // Twice at once: both get the same answer (or the same refusal), applied once.
              const [outcome, twin] = await Promise.all([
                attempt(call),
                step.twice ? attempt(call) : null,
              ]);
              if (twin) expect(twin).toEqual(outcome);
              if (known) {
                if (known.binding === binding) {
                  expect(outcome).toEqual({ ok: true, answer: known.answer });
                } else {
                  expect(outcome).toEqual({ ok: false, code: "conflict" });
                }
              } else if (outcome.ok) {
                applied.set(commandId, { binding, answer: outcome.answer });
              }
            }
            if (onceApplied.has(commandId)) continue;
            const onceCall = await callFor(once, step, commandId);
            if (onceCall && (await attempt(onceCall)).ok) onceApplied.add(commandId);
          }
          expect(files(full.workspace)).toEqual(files(once.workspace));
          expect(full.turns).toEqual(once.turns);
          expect(await full.nativeHistory()).toEqual(await once.nativeHistory());
          expect(await log(full)).toEqual(await log(once));
        } finally {
          await full.close();
          await once.close();
        }
      }),
      // A failing sequence is reported as found: shrinking replays whole worlds and takes minutes.
      { numRuns: 12, endOnFailure: true },
    );
  }, 240_000);
});
