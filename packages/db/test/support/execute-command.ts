import {
  type AggregateState,
  aggregateKindOfStream,
  type Command,
  type CommandMeta,
  commandStreamId,
  createSequentialIds,
  type DecideContext,
  type DomainError,
  type DomainEvent,
  decide,
  evolve,
  ID_PREFIXES,
  type IdKind,
  type IdOf,
  initialStateFor,
  projectEvent,
  type ThreadId,
  type ThreadState,
} from "@skein/domain";
import type { EventStore, ProjectionWrite, StoredEvent } from "../../src/index.ts";
import type { AppendResult } from "../../src/event-store.ts";

/**
 * The test-side stand-in for the orchestrator's command path (apps/api has its own): load the
 * aggregate, decide, evolve, project, and append the events with their row writes in one call.
 */

export type Aggregate = { streamId: string; state: AggregateState; version: number };

export type Decided =
  | { ok: true; events: DomainEvent[]; projections: ProjectionWrite[] }
  | { ok: false; error: DomainError };

export type Executed =
  | { kind: "rejected"; streamId: string; version: number; error: DomainError }
  | { kind: "noop"; streamId: string; version: number }
  | {
      kind: "appended";
      streamId: string;
      /** The stream version the command was decided against. */
      version: number;
      commandId: string;
      events: DomainEvent[];
      projections: ProjectionWrite[];
      result: AppendResult;
    };

/** A literal id of a kind: `idOf("run", "a1")` → `run_a1`. */
export function idOf<K extends IdKind>(kind: K, suffix: string): IdOf<K> {
  return `${ID_PREFIXES[kind]}_${suffix}` as IdOf<K>;
}

/** Command metadata from a deterministic id supply and a clock that ticks a second per command. */
export function metaSource(seed: string, startMs = Date.UTC(2025, 0, 1)): () => CommandMeta {
  const ids = createSequentialIds(seed);
  let tick = 0;
  return () => {
    tick += 1;
    return {
      commandId: ids.next("command"),
      at: new Date(startMs + tick * 1000).toISOString(),
      ids,
    };
  };
}

export function toDomainEvent(event: StoredEvent): DomainEvent {
  // The log only holds events the domain emitted; `DomainEvent` parsing is left to the tests
  // that check it, since it would dominate the cost of every load.
  return { type: event.type, data: event.data } as DomainEvent;
}

export async function loadAggregate(store: EventStore, streamId: string): Promise<Aggregate> {
  const events = await store.readStream(streamId);
  const state = initialStateFor(aggregateKindOfStream(streamId));
  for (const event of events) evolve(state, toDomainEvent(event));
  return { streamId, state, version: events.at(-1)?.streamVersion ?? 0 };
}

/** Threads a command reads through `context.readThread` (never writes). */
export function threadsReadBy(command: Command): ThreadId[] {
  switch (command.type) {
    case "ForkThread":
      return [command.data.sourceThreadId];
    case "QueueRun":
      return command.data.bringBackFrom ? [command.data.bringBackFrom] : [];
    case "CreateThread":
      return command.data.parentThreadId ? [command.data.parentThreadId] : [];
    default:
      return [];
  }
}

export async function loadContext(store: EventStore, command: Command): Promise<DecideContext> {
  const threads = new Map<string, ThreadState>();
  for (const threadId of threadsReadBy(command)) {
    const { state } = await loadAggregate(store, `thread-${threadId}`);
    if (state.kind === "thread" && state.thread) threads.set(threadId, state);
  }
  return { readThread: (threadId) => threads.get(threadId) };
}

/**
 * Decides, then evolves `aggregate.state` in place and collects each event's row writes
 * (`state.changed` is reset per event, so projecting must follow every single evolve). A thread
 * state is too large to copy per command, so the caller owns the consequence: if the append then
 * fails, the aggregate no longer matches the log and must be reloaded.
 */
export function decideAndProject(
  command: Command,
  aggregate: Aggregate,
  meta: CommandMeta,
  context: DecideContext = {},
): Decided {
  const decided = decide(command, aggregate.state, meta, context);
  if (!decided.ok) return decided;
  const projections: ProjectionWrite[] = [];
  for (const event of decided.events) {
    evolve(aggregate.state, event);
    projections.push(...projectEvent(aggregate.state, event));
  }
  aggregate.version += decided.events.length;
  return { ok: true, events: decided.events, projections };
}

export type ExecuteOptions = {
  /** Pass an expectedVersion this many versions behind the loaded one (provokes a conflict). */
  staleBy?: number;
};

/**
 * One command against the store, loading everything fresh (so the state evolved here is a private
 * copy). A store error such as `ConcurrencyError` propagates.
 */
export async function executeCommand(
  store: EventStore,
  command: Command,
  meta: CommandMeta,
  options: ExecuteOptions = {},
): Promise<Executed> {
  const streamId = commandStreamId(command);
  const aggregate = await loadAggregate(store, streamId);
  const version = aggregate.version;
  const decided = decideAndProject(command, aggregate, meta, await loadContext(store, command));
  if (!decided.ok) return { kind: "rejected", streamId, version, error: decided.error };
  if (decided.events.length === 0) return { kind: "noop", streamId, version };
  const result = await store.append(
    streamId,
    Math.max(0, version - (options.staleBy ?? 0)),
    decided.events,
    { commandId: meta.commandId, projections: decided.projections },
  );
  return { kind: "appended", streamId, version, commandId: meta.commandId, ...decided, result };
}
