import { nextQueuedRun, type Run, type RunId, type ThreadId } from "@skein/domain";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";

/**
 * B20: a run whose start was refused because the person withdrew it or moved another message
 * ahead of it (on any instance) while it was being dispatched. It is not a failure: the queue
 * simply moved on, and the drain picks what is first now.
 */
export async function leftQueueHead(
  repo: AggregateRepository,
  threadId: ThreadId,
  runId: RunId,
): Promise<boolean> {
  const state = await repo.refreshThread(threadId);
  const run = state.runs.get(runId);
  if (!run) return false;
  if (run.status === "cancelled") return true;
  return run.status === "queued" && nextQueuedRun(state)?.id !== runId;
}

/**
 * B20: the message as it stood when its run started. An edit is accepted until the StartRun
 * append, so the text read before the start may be older than the one the start sealed.
 */
export async function textAtStart(
  repo: AggregateRepository,
  threadId: ThreadId,
  run: Run,
  before: string,
): Promise<string> {
  const state = await repo.thread(threadId);
  return state.messages.get(run.userMessageId)?.text ?? before;
}
