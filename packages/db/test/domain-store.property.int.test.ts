import {
  type Command,
  commandStreamId,
  DomainEvent,
  type ProjectId,
  type ProviderSessionId,
  rebuildRows,
  type ThreadId,
} from "@skein/domain";
import {
  type Action,
  pickOf,
  THREAD_ACTIONS,
  type ThreadAction,
  threadCommand,
  WORLD_ACTIONS,
  type WorldAction,
  worldCommand,
} from "@skein/domain/testing";
import fc from "fast-check";
import { expect, it } from "vitest";
import { ConcurrencyError, type EventStore, type StoredEvent } from "../src/index.ts";
import { PROJECTION_TABLES } from "../src/projection-tables.ts";
import {
  executeCommand,
  loadAggregate,
  metaSource,
  toDomainEvent,
} from "./support/execute-command.ts";
import { describeStores } from "./support/store-factory.ts";

type Fault = "none" | "stale" | "retry";
type Step = Action & { fault: Fault };

// Weights keep a few threads busy (runs started, items streamed, turns finished) rather than
// spreading thin over many threads or piling up rejections.
// The store suite draws the shared thread actions, not the domain-only extras.
const WEIGHTS: Record<WorldAction | (typeof THREAD_ACTIONS)[number], number> = {
  project: 1,
  renameProject: 1,
  session: 1,
  thread: 1,
  fork: 2,
  queue: 4,
  start: 6,
  turn: 1,
  item: 6,
  delta: 4,
  completeItem: 3,
  request: 2,
  resolve: 2,
  finish: 2,
  interrupt: 1,
  cancel: 1,
  checkpoint: 3,
  rollback: 1,
  steer: 1,
};
const KINDS = [...WORLD_ACTIONS, ...THREAD_ACTIONS].flatMap((kind) =>
  Array.from({ length: WEIGHTS[kind] }, () => kind),
);

const stepArb: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...KINDS),
  target: fc.nat(20),
  pick: fc.nat(50),
  flag: fc.nat(40),
  fault: fc.oneof(
    { weight: 10, arbitrary: fc.constant<Fault>("none") },
    { weight: 1, arbitrary: fc.constant<Fault>("stale") },
    { weight: 1, arbitrary: fc.constant<Fault>("retry") },
  ),
});
/** The steps of one round run concurrently, one chain per stream, so appends share commits. */
const roundsArb = fc.array(fc.array(stepArb, { minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 40,
  size: "max",
});

type Committed = { streamId: string; events: unknown; first: number; last: number };

const seen = new Set<string>();

function isWorld(kind: Action["kind"]): kind is WorldAction {
  return (WORLD_ACTIONS as readonly string[]).includes(kind);
}

/** One property run: a store, the ids created so far, and what each command did. */
class Trial {
  readonly world = {
    projects: [] as ProjectId[],
    sessions: [] as ProviderSessionId[],
    threads: [] as ThreadId[],
  };
  readonly committed = new Map<string, Committed>();
  readonly rejected = new Set<string>();
  private readonly meta = metaSource("prop");
  private counter = 0;

  constructor(readonly store: EventStore) {}

  async round(steps: readonly Step[]): Promise<void> {
    const chains = new Map<string, (() => Promise<void>)[]>();
    for (const step of steps) {
      const resolved = await this.resolve(step);
      if (!resolved) continue;
      const chain = chains.get(resolved.key) ?? [];
      chain.push(...resolved.run);
      chains.set(resolved.key, chain);
    }
    await Promise.all(
      [...chains.values()].map(async (chain) => {
        for (const run of chain) await run();
      }),
    );
  }

  /** Which stream a step writes, and the command(s) it runs there (thread ones built late). */
  private async resolve(step: Step) {
    const n = `g${this.counter++}`;
    const thread = pickOf(this.world.threads, step.target);
    const kind = isWorld(step.kind) || thread ? step.kind : "thread";
    if (isWorld(kind)) {
      const source =
        kind === "fork" && thread
          ? (await loadAggregate(this.store, `thread-${thread}`)).state
          : undefined;
      const command = worldCommand(
        { ...step, kind },
        n,
        this.world,
        source?.kind === "thread" ? source : undefined,
      );
      if (!command) return null;
      return { key: commandStreamId(command), run: [() => this.execute(command, step.fault)] };
    }
    const threadId = thread as ThreadId;
    // Starting a run takes up to four commands (queue, provider thread, run, provider turn).
    const repeats = kind === "start" ? 4 : kind === "checkpoint" ? 2 : 1;
    const run = Array.from({ length: repeats }, (_, i) => async () => {
      const { state } = await loadAggregate(this.store, `thread-${threadId}`);
      if (state.kind !== "thread") throw new Error("thread stream expected");
      const command = threadCommand(
        { ...step, kind: kind as ThreadAction },
        state,
        threadId,
        `${n}x${i}`,
      );
      if (command) await this.execute(command, step.fault);
    });
    return { key: `thread-${threadId}`, run };
  }

  private async execute(command: Command, fault: Fault): Promise<void> {
    const meta = this.meta();
    const streamId = commandStreamId(command);
    const before = await this.store.streamVersion(streamId);
    let outcome: Awaited<ReturnType<typeof executeCommand>>;
    try {
      outcome = await executeCommand(this.store, command, meta, {
        staleBy: fault === "stale" ? 1 : 0,
      });
    } catch (error) {
      expect(error).toBeInstanceOf(ConcurrencyError);
      expect(fault).toBe("stale");
      this.rejected.add(meta.commandId);
      expect(await this.store.streamVersion(streamId)).toBe(before);
      return;
    }
    if (outcome.kind !== "appended") {
      this.rejected.add(meta.commandId);
      expect(await this.store.streamVersion(streamId)).toBe(before);
      return;
    }
    const { result, events } = outcome;
    expect(fault !== "stale" || outcome.version === 0).toBe(true);
    expect(result.duplicate).toBe(false);
    expect(result.lastSequence - result.firstSequence + 1).toBe(events.length);
    expect(result.streamVersion).toBe(before + events.length);
    this.committed.set(meta.commandId, {
      streamId,
      events: JSON.parse(JSON.stringify(events)),
      first: result.firstSequence,
      last: result.lastSequence,
    });
    for (const event of events) seen.add(event.type);
    if (command.type === "CreateThread" || command.type === "ForkThread") {
      this.world.threads.push(command.data.threadId);
    } else if (command.type === "CreateProject") {
      this.world.projects.push(command.data.projectId);
    } else if (command.type === "OpenProviderSession") {
      this.world.sessions.push(command.data.providerSessionId);
    }
    if (fault === "retry") {
      // A client retry (S4): the stored receipt comes back and nothing is appended again.
      const again = await this.store.append(streamId, outcome.version, events, {
        commandId: meta.commandId,
        projections: outcome.projections,
      });
      expect(again).toMatchObject({ duplicate: true, firstSequence: result.firstSequence });
      expect(await this.store.streamVersion(streamId)).toBe(result.streamVersion);
    }
  }
}

async function readAllPaged(store: EventStore, page: number): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const batch = await store.readAll(out.at(-1)?.sequence ?? 0, page);
    out.push(...batch);
    if (batch.length < page) return out;
  }
}

/** Every projection row, keyed `table/id`, as of one snapshot. */
async function storeRows(store: EventStore) {
  return store.snapshot(async (query) => {
    const rows: Record<string, unknown> = {};
    const updated: number[] = [];
    for (const table of PROJECTION_TABLES) {
      for (const { updatedSequence, ...row } of await query.list(table)) {
        rows[`${table}/${row.id}`] = { table, ...row };
        updated.push(updatedSequence);
      }
    }
    return { rows, updated };
  });
}

function checkLog(trial: Trial, log: readonly StoredEvent[]): void {
  for (let i = 1; i < log.length; i += 1) {
    expect(log[i]?.sequence).toBeGreaterThan(log[i - 1]?.sequence ?? 0);
  }
  // Exactly the committed commands' events, each at the sequences its append reported.
  const expected = [...trial.committed.values()].flatMap((c) =>
    Array.from({ length: c.last - c.first + 1 }, (_, i) => c.first + i),
  );
  expect(log.map((e) => e.sequence)).toEqual(expected.sort((a, b) => a - b));
  const bySequence = new Map(log.map((e) => [e.sequence, e]));
  for (const [commandId, c] of trial.committed) {
    const mine = Array.from({ length: c.last - c.first + 1 }, (_, i) =>
      bySequence.get(c.first + i),
    ).filter((e): e is StoredEvent => e !== undefined);
    expect(mine.every((e) => e.commandId === commandId && e.streamId === c.streamId)).toBe(true);
    expect(mine.map((e) => ({ type: e.type, data: e.data }))).toEqual(c.events);
  }
  for (const event of log) {
    expect(event.commandId !== null && trial.rejected.has(event.commandId)).toBe(false);
    const parsed = DomainEvent.safeParse({ type: event.type, data: event.data });
    expect(parsed.success, `${event.type} at ${event.sequence}`).toBe(true);
  }
}

describeStores("domain commands through the store", (stores) => {
  it("S1/S4: random valid command sequences: tables equal a rebuild from the log, readAll misses nothing, rejected commands append nothing", async () => {
    seen.clear();
    await fc.assert(
      fc.asyncProperty(roundsArb, fc.integer({ min: 1, max: 7 }), async (rounds, page) => {
        const store = await stores.fresh();
        try {
          const trial = new Trial(store);
          for (const round of rounds) await trial.round(round);

          const log = await store.readAll(0);
          checkLog(trial, log);
          expect(await readAllPaged(store, page)).toEqual(log);

          const byStream = new Map<string, DomainEvent[]>();
          for (const event of log) {
            const events = byStream.get(event.streamId) ?? [];
            events.push(toDomainEvent(event));
            byStream.set(event.streamId, events);
          }
          const rebuilt = Object.fromEntries(rebuildRows(byStream));
          const { snapshotSequence, data } = await storeRows(store);
          expect(snapshotSequence).toBe(log.at(-1)?.sequence ?? 0);
          expect(data.rows).toEqual(rebuilt);
          // Rows carry the last sequence of the append that wrote them.
          const lasts = new Set([...trial.committed.values()].map((c) => c.last));
          expect(data.updated.every((sequence) => lasts.has(sequence))).toBe(true);
        } finally {
          await store.close();
        }
      }),
      { numRuns: 50 },
    );
    // The generator must reach the interesting paths, not just pile up rejections.
    for (const type of [
      "ProjectCreated",
      "ProviderSessionOpened",
      "ThreadCreated",
      "ThreadForked",
      "RunStarted",
      "ProviderTurnStarted",
      "ItemStarted",
      "ItemDeltaAppended",
      "ItemCompleted",
      "RuntimeRequestOpened",
      "RuntimeRequestResolved",
      "ProviderTurnCompleted",
      "RunFinished",
      "CheckpointRecorded",
    ]) {
      expect(seen, type).toContain(type);
    }
  });
});
