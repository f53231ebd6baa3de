"use client";
import Link from "next/link";
import { useApi } from "../../lib/api-context.tsx";
import { providerModel, STATUS_LABEL, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadDetail } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { useFork } from "../../lib/use-fork.ts";
import { useThread } from "../../lib/use-thread-context.tsx";
import type { WatchState } from "../../lib/use-watch.ts";
import { ConnectionBadge } from "../common/connection-badge.tsx";
import { StatusDot } from "../common/status-dot.tsx";

export function ThreadHeader({ detail, watch }: { detail: ThreadDetail; watch: WatchState }) {
  const client = useApi();
  const { shells, refreshThread } = useShells();
  const { thread } = detail;
  const forker = useFork(thread.id, thread.title);
  const archive = useAction();
  const { isolatedForks: isolated, setIsolatedForks: setIsolated } = useThread();
  const parentId = thread.lineage?.parentThreadId ?? null;
  const parent = parentId ? shells.get(parentId) : undefined;
  const hasStableRun = detail.runs.some((run) => run.status === "completed");

  return (
    <header className="thread-header">
      <div className="thread-title-row">
        <StatusDot status={thread.status} />
        <h1 className="thread-title">{thread.title}</h1>
        <span className="muted">{STATUS_LABEL[thread.status]}</span>
        <ConnectionBadge watch={watch} label="thread" />
      </div>
      <div className="thread-meta muted">
        <span>Default: {providerModel(thread.defaultProvider, thread.modelSelection.model)}</span>
        <span>{words(thread.runtimeMode)}</span>
        <span>{thread.runCount} runs</span>
        {thread.worktreePath && (
          <span title={thread.worktreePath}>
            own worktree …/{thread.worktreePath.split("/").filter(Boolean).at(-1)}
          </span>
        )}
        {parentId && (
          <span>
            {thread.lineage?.relationshipToParent ?? "child"} of{" "}
            <Link href={`/threads/${parentId}`}>{parent?.title ?? parentId}</Link>
          </span>
        )}
        {thread.archivedAt && <span className="badge">archived</span>}
      </div>
      <div className="thread-actions">
        <button
          type="button"
          onClick={() => forker.fork({ type: "latest_stable" }, { isolatedWorkspace: isolated })}
          disabled={forker.pending || !hasStableRun}
          title={hasStableRun ? "Fork from the latest completed run" : "No completed run yet"}
        >
          {forker.pending ? "Forking…" : "Fork latest"}
        </button>
        <label className="inline">
          <input
            type="checkbox"
            checked={isolated}
            onChange={(event) => setIsolated(event.target.checked)}
          />
          Isolated workspace for forks
        </label>
        <button
          type="button"
          disabled={archive.pending || thread.archivedAt !== null}
          onClick={() =>
            void archive.run(async () => {
              await client.thread.archive.mutate({ threadId: thread.id });
              refreshThread(thread.id);
            })
          }
        >
          Archive thread
        </button>
      </div>
      {(forker.error || archive.error) && (
        <p className="error" role="alert">
          {forker.error ?? archive.error}
        </p>
      )}
    </header>
  );
}
