import {
  type Command,
  isProjectCommand,
  isThreadCommand,
  type SessionCommand,
} from "./commands.ts";
import { type DecideResult, ValidationError } from "./errors.ts";
import { type DomainEvent, isProjectEvent, isThreadEvent, type SessionEvent } from "./events.ts";
import type { CommandMeta, DecideContext } from "./meta.ts";
import { decideProject } from "./project/decide-project.ts";
import { decideSession } from "./session/decide-session.ts";
import { evolveProject, evolveSession } from "./state/evolve-project.ts";
import { evolveThread } from "./state/evolve-thread.ts";
import {
  initialProjectState,
  initialSessionState,
  type ProjectState,
  type SessionState,
} from "./state/project-state.ts";
import { initialThreadState, type ThreadState } from "./state/thread-state.ts";
import { decideThread } from "./thread/decide-thread.ts";

export type AggregateState = ThreadState | ProjectState | SessionState;
export type AggregateKind = AggregateState["kind"];

/**
 * One entry point for every command: routes to the aggregate the command addresses. `state` must
 * be that aggregate's state (see `commandStreamId`); a mismatch is a validation error.
 */
export function decide(
  command: Command,
  state: AggregateState,
  meta: CommandMeta,
  context: DecideContext = {},
): DecideResult<DomainEvent> {
  if (isThreadCommand(command)) {
    return state.kind === "thread"
      ? decideThread(command, state, meta, context)
      : mismatch(command.type, state.kind);
  }
  if (isProjectCommand(command)) {
    return state.kind === "project"
      ? decideProject(command, state, meta)
      : mismatch(command.type, state.kind);
  }
  return state.kind === "session"
    ? decideSession(command as SessionCommand, state, meta)
    : mismatch(command.type, state.kind);
}

function mismatch(type: string, kind: AggregateKind): DecideResult<DomainEvent> {
  return {
    ok: false,
    error: new ValidationError(`${type} cannot be decided against a ${kind} stream`),
  };
}

/** Applies a committed event to its aggregate's state (in place for threads; see ThreadState). */
export function evolve<S extends AggregateState>(state: S, event: DomainEvent): S {
  if (isThreadEvent(event)) {
    if (state.kind !== "thread") throw new Error(`${event.type} applied to a ${state.kind} stream`);
    evolveThread(state, event);
  } else if (isProjectEvent(event)) {
    if (state.kind !== "project")
      throw new Error(`${event.type} applied to a ${state.kind} stream`);
    evolveProject(state, event);
  } else {
    if (state.kind !== "session")
      throw new Error(`${event.type} applied to a ${state.kind} stream`);
    evolveSession(state, event as SessionEvent);
  }
  return state;
}

/** The aggregate a stream id names (`thread-…`, `project-…`, `session-…`). */
export function aggregateKindOfStream(streamId: string): AggregateKind {
  if (streamId.startsWith("thread-")) return "thread";
  if (streamId.startsWith("project-")) return "project";
  if (streamId.startsWith("session-")) return "session";
  throw new Error(`unknown stream ${streamId}`);
}

export function initialStateFor(kind: AggregateKind): AggregateState {
  if (kind === "thread") return initialThreadState();
  if (kind === "project") return initialProjectState();
  return initialSessionState();
}

/** Folds a stream's events into a fresh state. */
export function replay<S extends AggregateState>(initial: S, events: Iterable<DomainEvent>): S {
  for (const event of events) evolve(initial, event);
  return initial;
}
