"use client";
import { useMemo } from "react";
import type { TurnItemOf } from "../../lib/types.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import { CheckpointCard, isSafetyCheckpoint } from "./checkpoint-card.tsx";

/** The thread's checkpoints, newest first, each with its run's diff and a guarded rollback. */
export function CheckpointsView() {
  const { detail, threadId, refresh } = useThread();
  const changesByRun = useMemo(() => {
    const map = new Map<string, TurnItemOf<"file_change">[]>();
    for (const item of detail?.turnItems ?? []) {
      if (item.type !== "file_change" || item.runId === null) continue;
      const list = map.get(item.runId) ?? [];
      list.push(item);
      map.set(item.runId, list);
    }
    return map;
  }, [detail]);
  if (detail === null) return null;
  const checkpoints = [...detail.checkpoints].reverse();
  // "Current" is the newest checkpoint whose run still counts: after a rollback, that is the
  // checkpoint rolled back to, not the newest row.
  const rolledBack = new Set(
    detail.runs.filter((run) => run.status === "rolled_back").map((run) => run.id),
  );
  // A safety checkpoint (B14) is never where the workspace "is": it holds what was overwritten.
  const latestId =
    detail.checkpoints.findLast(
      (c) => !isSafetyCheckpoint(c) && (c.runId === null || !rolledBack.has(c.runId)),
    )?.id ?? null;
  return (
    <div className="page checkpoints">
      <h2>Checkpoints</h2>
      {checkpoints.length === 0 && (
        <p className="muted">No checkpoints yet: one is captured after each completed run.</p>
      )}
      {checkpoints.map((checkpoint) => (
        <CheckpointCard
          key={checkpoint.id}
          threadId={threadId}
          checkpoint={checkpoint}
          run={detail.runs.find((run) => run.id === checkpoint.runId)}
          changes={checkpoint.runId ? (changesByRun.get(checkpoint.runId) ?? []) : []}
          latest={checkpoint.id === latestId}
          busy={detail.thread.activeRunId !== null}
          onRolledBack={refresh}
        />
      ))}
    </div>
  );
}
