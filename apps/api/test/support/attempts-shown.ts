import type { EventStore } from "@skein/db";
import type { RunId, ThreadId } from "@skein/domain";
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
