import Link from "next/link";
import { ordinalRange, shortId, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { TurnItemOf } from "../../lib/types.ts";

export function CheckpointView({ item }: { item: TurnItemOf<"checkpoint"> }) {
  const changed = item.files.length;
  return (
    <div className="marker checkpoint">
      <span className="item-label">
        Checkpoint {item.action === "restored" ? "restored" : "captured"}
      </span>{" "}
      {item.appRunOrdinal !== null && <span>after run {item.appRunOrdinal}</span>}{" "}
      <span className="muted">
        {changed === 0 ? "no file changes" : `${changed} file${changed === 1 ? "" : "s"} changed`}
      </span>{" "}
      <Link href={`/threads/${item.threadId}/checkpoints#${item.checkpointId}`}>
        View checkpoint
      </Link>
    </div>
  );
}

/** One item that goes "Compacting context..." → "Compacted context" (P6). */
export function CompactionView({ item }: { item: TurnItemOf<"compaction"> }) {
  return (
    <div className="marker compaction" data-status={item.status}>
      <span className="item-label">{item.title}</span>
    </div>
  );
}

export function HandoffView({ item }: { item: TurnItemOf<"handoff"> }) {
  return (
    <div className="marker handoff">
      <span className="item-label">Handoff</span> <span>{words(item.strategy)}</span>{" "}
      <span className="muted">
        · covers {ordinalRange(item.coveredRunOrdinals)} · from{" "}
        {item.fromProviderThreadIds.length === 0
          ? "no provider thread"
          : item.fromProviderThreadIds.map(shortId).join(", ")}{" "}
        → {shortId(item.toProviderThreadId)}
      </span>{" "}
      <Link href={`/threads/${item.threadId}/handoffs#${item.transferId}`}>Inspect handoff</Link>
    </div>
  );
}

/** The "forked from …" marker: where this thread's own history begins (P7). */
export function ForkView({ item }: { item: TurnItemOf<"fork"> }) {
  const { shells } = useShells();
  const source = shells.get(item.sourceThreadId);
  const runNote = item.sourcePoint.runId ? ` at ${shortId(item.sourcePoint.runId)}` : "";
  return (
    <div className="marker fork-marker">
      <span className="item-label">{item.title}</span>{" "}
      <span>
        {item.relationship === "subagent" ? "Subagent of" : "Forked from"}{" "}
        <Link href={`/threads/${item.sourceThreadId}`}>{source?.title ?? item.sourceThreadId}</Link>
        {runNote}
      </span>
    </div>
  );
}
