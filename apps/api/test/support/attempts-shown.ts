import type { EventStore } from "@skein/db";
import type { RunId, ThreadId, ThreadState } from "@skein/domain";
import { createReadModels } from "../../src/read-models/index.ts";

export type ShownAttempt = { reason: string; status: string; error: string | null };

/**
 * E4: a run's attempts as the API reads show them to a person: `thread.detail`'s attempt rows,
 * and `thread.graph`'s run → attempts with the provider turn (and its error) behind each.
 */
export async function attemptsShown(
  store: EventStore,
  threadId: ThreadId,
  runId: RunId,
): Promise<{ detail: [string, string][]; graph: ShownAttempt[] }> {
  const reads = createReadModels(store);
  const detail = (await reads.detail(threadId)).attempts
    .filter((a) => a.runId === runId)
    .sort((a, b) => a.attemptOrdinal - b.attemptOrdinal)
    .map((a): [string, string] => [a.reason, a.status]);
  const run = (await reads.graph(threadId)).runs.find((r) => r.run.id === runId);
  const graph = (run?.attempts ?? []).map((a) => ({
    reason: a.attempt.reason,
    status: a.attempt.status,
    error: a.providerTurn?.error ?? null,
  }));
  return { detail, graph };
}

/**
 * A run's attempts as the event log holds them, `[ordinal, reason, status]` in the order they
 * were made; `harness` is either provider's Skein harness.
 */
export async function attemptsOf(
  harness: { thread(threadId: ThreadId): Promise<ThreadState> },
  threadId: ThreadId,
  runId: RunId,
) {
  const state = await harness.thread(threadId);
  return (state.attemptIdsByRun.get(runId) ?? []).map((id) => {
    const a = state.attempts.get(id);
    return [a?.attemptOrdinal, a?.reason, a?.status];
  });
}
