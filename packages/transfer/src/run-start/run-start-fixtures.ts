import type { ProviderKind, RunId, ThreadState } from "@skein/domain";
import { id, payloadFor, readThreads, ThreadScenario } from "@skein/domain/testing";
import { gatherTransferInputs } from "./start-inputs.ts";
import type { RunStartInput, RuntimeFacts } from "./types.ts";

export const ALL = { nativeFork: true, forkAtTurn: true, resume: true };
export const SESSION = id("providerSession", "rt");

export function requested(s: ThreadScenario, runId: RunId, capabilities = ALL): RunStartInput {
  const run = s.state.runs.get(runId)!;
  return {
    type: "RunStartRequested",
    data: { threadId: s.threadId, run, text: "next message", capabilities },
  };
}

/**
 * The ContextLoaded fact for a thread (other threads read from `others`), its code state read
 * and empty: a handoff resolved from it is built at once (`unread` is the first load, before).
 */
export async function loaded(state: ThreadState, ...others: ThreadState[]): Promise<RunStartInput> {
  const fact = await unread(state, ...others);
  return {
    type: "ContextLoaded",
    data: { ...fact.data, inputs: { ...fact.data.inputs, netDiffs: [] } },
  };
}

/** The first ContextLoaded of a round, as the runner reads it: no net diffs read yet. */
export async function unread(state: ThreadState, ...others: ThreadState[]) {
  const byId = new Map(others.map((o) => [o.thread!.id, o]));
  const inputs = await gatherTransferInputs(state, async (threadId) => byId.get(threadId)!);
  return { type: "ContextLoaded", data: { state, inputs } } satisfies RunStartInput;
}

export function runtime(facts: Partial<RuntimeFacts> = {}): RunStartInput {
  return {
    type: "RuntimeReady",
    data: {
      providerSessionId: SESSION,
      loadedThreads: new Set(),
      canResume: true,
      canAskPeers: false,
      ...facts,
    },
  };
}

export const fact = {
  started: (ref = "native-new"): RunStartInput => ({
    type: "ThreadStarted",
    data: { nativeThreadRef: ref },
  }),
  forked: (ref = "native-fork"): RunStartInput => ({
    type: "NativeForked",
    data: { nativeThreadRef: ref },
  }),
  forkFailed: (reason = "boom"): RunStartInput => ({ type: "NativeForkFailed", data: { reason } }),
  resumed: (): RunStartInput => ({ type: "ThreadResumed", data: {} }),
  resumeFailed: (held = false, instanceId: string | null = "api-b"): RunStartInput => ({
    type: "ResumeFailed",
    data: { reason: held ? "held by another runtime" : "no such thread", held, instanceId },
  }),
  appended: (): RunStartInput => ({ type: "StartAppended", data: {} }),
};

/** A thread with one completed run on `provider`, and a second run queued on `next`. */
export function secondRun(provider: ProviderKind, next: ProviderKind) {
  const s = new ThreadScenario().create(provider);
  const first = s.completedRun("one", { provider });
  const runId = s.queue("two", next);
  return { s, first, runId };
}

/** A source thread with one completed Codex run, forked at it; the fork has a queued run. */
export function forkOf(provider: ProviderKind) {
  const src = new ThreadScenario("src").create("codex");
  const first = src.completedRun("one", { provider: "codex" });
  const fork = new ThreadScenario("fork");
  fork.context = readThreads(src.state);
  fork.exec({
    type: "ForkThread",
    data: {
      threadId: fork.threadId,
      sourceThreadId: src.threadId,
      sourcePoint: { type: "run", runId: first.runId },
      createdBy: "user",
      relationship: "fork",
    },
  });
  const runId = fork.queue("in the fork", provider);
  return { src, fork, first, runId };
}

/** A ready preview of the fork's pending transfer (manual: the user's text; else generated). */
export function preview(fork: ThreadScenario, manual: boolean) {
  const [transfer] = fork.state.transfers.values();
  const handoffId = id("handoff", manual ? "manual" : "generated");
  fork.exec({
    type: "PreviewHandoff",
    data: {
      threadId: fork.threadId,
      handoffId,
      transferId: transfer!.id,
      kind: "portable_context",
      strategy: manual ? "manual_context" : "full_thread_summary",
      fromProviderThreadIds: [],
      coveredRunOrdinals: { from: 1, to: 1 },
      summaryText: manual ? "my own words" : "a generated summary",
      payload: payloadFor(fork.threadId),
    },
  });
  return handoffId;
}
