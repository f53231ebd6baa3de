import type { ContextHandoff, RunId, ThreadId, ThreadState } from "@skein/domain";
import type { AppToolHandler } from "@skein/domain/provider";
import {
  answerHistory,
  gatherTransferInputs,
  HistoryCallError,
  parseHistoryCall,
  type RunSegment,
} from "@skein/transfer";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";

/**
 * The runs a provider thread was handed (issue 25): the union of the coverage of every handoff
 * that was sent into it and still stands. Nothing else is readable through `skein_history`.
 */
export function handedOverRuns(state: ThreadState, providerThreadId: string): RunSegment[] {
  const byThread = new Map<string, Set<number>>();
  const order: string[] = [];
  const sent = [...state.handoffs.values()].filter(
    (h: ContextHandoff) =>
      h.toProviderThreadId === providerThreadId && h.targetRunId !== null && h.status === "ready",
  );
  for (const handoff of sent) {
    for (const { threadId, runs } of handoff.payload.coverage) {
      let ordinals = byThread.get(threadId);
      if (!ordinals) {
        ordinals = new Set();
        byThread.set(threadId, ordinals);
        order.push(threadId);
      }
      for (const { from, to } of runs) for (let n = from; n <= to; n++) ordinals.add(n);
    }
  }
  return order.map((threadId) => ({
    threadId: threadId as ThreadId,
    ordinals: [...(byThread.get(threadId) ?? [])].sort((a, b) => a - b),
  }));
}

/**
 * `skein_history` for one run: read-only answers over exactly the runs handed to the provider
 * thread the run executes on, bounded in tokens. Bad arguments, a run outside the coverage or a
 * conversation nothing was handed to are tool errors the model reads; the run goes on.
 */
export function createHistoryHandler(
  repo: AggregateRepository,
  threadId: ThreadId,
  runId: RunId,
): AppToolHandler {
  return async (call) => {
    try {
      const query = parseHistoryCall(call.input);
      const state = await repo.thread(threadId);
      const providerThreadId = state.runs.get(runId)?.providerThreadId ?? null;
      const selection = providerThreadId ? handedOverRuns(state, providerThreadId) : [];
      if (selection.length === 0) {
        return {
          output: "No earlier runs were handed to this conversation: there is no history to read.",
          isError: true,
        };
      }
      const inputs = await gatherTransferInputs(state, (id) => repo.thread(id));
      return { output: answerHistory(query, { selection, ...inputs }) };
    } catch (error) {
      if (error instanceof HistoryCallError) return { output: error.message, isError: true };
      // Whatever else went wrong is the tool's failure, told to the model; the run goes on.
      const reason = error instanceof Error ? error.message : String(error);
      return { output: `skein_history could not answer: ${reason}`, isError: true };
    }
  };
}
