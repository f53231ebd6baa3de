import type { ForkSourcePointSpec } from "../commands/thread-lifecycle-commands.ts";
import { PreconditionFailedError } from "../errors.ts";
import type { CheckpointId } from "../ids.ts";
import type { ThreadState } from "../state/thread-state.ts";
import { pointAtRun } from "./builders.ts";
import { pointAtItem, pointAtNode, pointAtProviderThread } from "./fork-point-inside.ts";
import { pointAtSettledRun, type ResolvedPoint } from "./settled-point.ts";
import { requireEntity } from "./guards.ts";

export type { ResolvedPoint };

/**
 * The latest stable point of a thread (T2): the latest completed run with a ready checkpoint,
 * else the latest completed run, else the thread's empty beginning. Cached, so O(1).
 */
export function latestStablePoint(s: ThreadState): ResolvedPoint {
  const runId = s.latestStableRunId ?? s.latestCompletedRunId;
  const run = runId ? (s.runs.get(runId) ?? null) : null;
  const threadId = s.thread?.id;
  if (!threadId) throw new PreconditionFailedError("source thread does not exist");
  return { point: pointAtRun(s, threadId, run), run, cutoffSortKey: s.nextItemSortKey - 1 };
}

/** T2: never a point inside a run that is still in progress. */
export function resolveForkPoint(s: ThreadState, spec: ForkSourcePointSpec): ResolvedPoint {
  switch (spec.type) {
    case "latest_stable":
      return latestStablePoint(s);
    case "run":
      return pointAtSettledRun(s, spec.runId);
    case "checkpoint":
      return pointAtCheckpoint(s, spec.checkpointId);
    case "turn_item":
      return pointAtItem(s, spec.turnItemId);
    case "node":
      return pointAtNode(s, spec.nodeId);
    case "provider_thread":
      return pointAtProviderThread(s, spec.providerThreadId);
  }
}

function pointAtCheckpoint(s: ThreadState, checkpointId: CheckpointId): ResolvedPoint {
  const checkpoint = requireEntity(s.checkpoints, checkpointId, "Checkpoint");
  if (checkpoint.status !== "ready") {
    throw new PreconditionFailedError(`checkpoint ${checkpoint.id} is ${checkpoint.status}`);
  }
  if (!checkpoint.runId) {
    throw new PreconditionFailedError(`checkpoint ${checkpoint.id} is not tied to a run`);
  }
  const resolved = pointAtSettledRun(s, checkpoint.runId);
  // The point IS the checkpoint (a file state), not the run's conversation: transfer builds a
  // checkpoint_summary for it when it cannot fork natively (issue 6); native refs stay usable.
  return { ...resolved, point: { ...resolved.point, runId: null, checkpointId: checkpoint.id } };
}
