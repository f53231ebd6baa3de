import type { HandoffPayload } from "../entities/context-handoff.ts";
import type { ProviderCapabilities } from "../entities/provider-session.ts";
import { asId, ID_PREFIXES, type IdKind, type IdOf, type ThreadId } from "../ids.ts";
import type { DecideContext } from "../meta.ts";
import type { ThreadState } from "../state/thread-state.ts";

/** A literal id of a kind, e.g. `id("run", "x")` → `run_x`. */
export function id<K extends IdKind>(kind: K, suffix: string): IdOf<K> {
  return asId(kind, `${ID_PREFIXES[kind]}_${suffix}`);
}

export function readThreads(...states: ThreadState[]): DecideContext {
  const byId = new Map<ThreadId, ThreadState>();
  for (const s of states) if (s.thread) byId.set(s.thread.id, s);
  return { readThread: (threadId) => byId.get(threadId) };
}

export const ALL_CAPABILITIES: ProviderCapabilities = {
  nativeFork: true,
  forkAtTurn: true,
  rollback: true,
  steer: true,
  resume: true,
  strongTurnIds: true,
  nativeSubagents: true,
  appOwnedTools: true,
  historyInjection: true,
  interrupt: true,
  approvals: true,
  readHistory: true,
  planMode: true,
  effort: true,
  adoptSessions: true,
};

export function payloadFor(sourceThreadId: ThreadId): HandoffPayload {
  return {
    version: 1,
    strategy: "full_thread_summary",
    kind: "portable_context",
    transfer: {
      id: "ctx_fixture" as HandoffPayload["transfer"]["id"],
      type: "fork",
      sourceThreadId,
      targetThreadId: sourceThreadId,
    },
    targetProvider: null,
    toProviderThreadId: null,
    coverage: [],
    omitted: [],
    checkpoint: null,
    runs: [],
    manualText: null,
  };
}

/** Narrows an aggregate state returned by the decider spec to a thread state. */
export function asThread(state: { kind: string }): ThreadState {
  if (state.kind !== "thread") throw new Error("thread state expected");
  return state as ThreadState;
}
