import Link from "next/link";
import { PROVIDER_LABEL, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { TurnItemOf } from "../../lib/types.ts";
import { useLineage } from "../../lib/use-run-number.ts";
import { CopyId } from "../common/copy-id.tsx";

export function CheckpointView({ item }: { item: TurnItemOf<"checkpoint"> }) {
  const { numberOf } = useLineage();
  const changed = item.files.length;
  return (
    <div className="marker checkpoint">
      <span className="item-label">
        Checkpoint {item.action === "restored" ? "restored" : "captured"}
      </span>{" "}
      {item.appRunOrdinal !== null && (
        <span>after run {numberOf(item.threadId, item.appRunOrdinal)}</span>
      )}{" "}
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
  const { numberOf } = useLineage();
  const range = item.coveredRunOrdinals;
  const [from, to] = range
    ? [numberOf(item.threadId, range.from), numberOf(item.threadId, range.to)]
    : [null, null];
  const target = item.provider ? PROVIDER_LABEL[item.provider] : "the provider";
  return (
    <div className="marker handoff">
      <span className="item-label">Handoff</span> <span>{words(item.strategy)}</span>{" "}
      <span className="muted">
        · covers {from === null ? "—" : from === to ? `run ${from}` : `runs ${from}–${to}`} · to{" "}
        {target}
      </span>
      <CopyId id={item.toProviderThreadId} what="target provider thread" />{" "}
      <Link href={`/threads/${item.threadId}/handoffs#${item.transferId}`}>Inspect handoff</Link>
    </div>
  );
}

/** The "forked from …" marker: where this thread's own history begins (P7). */
export function ForkView({ item }: { item: TurnItemOf<"fork"> }) {
  const { shells } = useShells();
  const { numberOf, inheritanceOf } = useLineage();
  const source = shells.get(item.sourceThreadId);
  const at = inheritanceOf(item.threadId)?.sourceRunOrdinal;
  const runNote =
    at !== undefined && at > 0
      ? ` at run ${numberOf(item.sourceThreadId, at)}`
      : at === 0
        ? " before its first run"
        : "";
  return (
    <div className="marker fork-marker">
      <span className="item-label">{item.title}</span>{" "}
      <span>
        {item.relationship === "subagent" ? "Subagent of" : "Forked from"}{" "}
        <Link href={`/threads/${item.sourceThreadId}`}>{source?.title ?? item.sourceThreadId}</Link>
        {runNote}
      </span>
      {item.sourcePoint.runId && <CopyId id={item.sourcePoint.runId} what="source run" />}
    </div>
  );
}

/** B17: a commit, push or pull-request event, with its details folded. */
export function GitView({ item }: { item: TurnItemOf<"git"> }) {
  return (
    <div className="marker git-marker" data-git-action={item.action} data-git-ref={item.ref ?? ""}>
      <span className="item-label">{item.title}</span>
      {item.url && (
        <>
          {" "}
          <a href={item.url} target="_blank" rel="noreferrer">
            open
          </a>
        </>
      )}
      {item.detail && (
        <details>
          <summary>details</summary>
          <pre>{item.detail}</pre>
        </details>
      )}
    </div>
  );
}
