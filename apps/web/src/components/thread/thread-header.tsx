"use client";
import Link from "next/link";
import { Ellipsis } from "lucide-react";
import { memo, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { providerModel, STATUS_LABEL, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import type { ThreadDetail } from "../../lib/types.ts";
import { archiveWithUndo } from "../../lib/archive-with-undo.ts";
import { confirmArchive } from "../../lib/confirm-archive.ts";
import { useAction } from "../../lib/use-action.ts";
import { currentChoice, sameChoiceInputs } from "../../lib/composer-choice.ts";
import { useFork } from "../../lib/use-fork.ts";
import { useProviderModelLabel } from "../../lib/use-provider-models.ts";
import { usageDetail, usageLabel } from "../../lib/usage-label.ts";
import { CopyId } from "../common/copy-id.tsx";
import type { WatchState } from "../../lib/use-watch.ts";
import { ConnectionBadge } from "../common/connection-badge.tsx";
import { StatusDot } from "../common/status-dot.tsx";
import { ActionError } from "../common/action-error.tsx";
import { ThreadTitle } from "./thread-title.tsx";
import { WorkspaceSetupNotice } from "./workspace-setup-notice.tsx";

type HeaderProps = {
  detail: ThreadDetail;
  watch: WatchState;
  /** Forks made from here get their own worktree (passed in: the thread context changes per delta). */
  isolated: boolean;
  setIsolated(value: boolean): void;
  /** Shown as of a past moment (time travel): what it was then, and no actions on it. */
  past: boolean;
};

/** Renders again when the shell, runs, watch or fork option change, not for streamed deltas. */
export const ThreadHeader = memo(
  ThreadHeaderView,
  (a: HeaderProps, b: HeaderProps) =>
    a.watch === b.watch &&
    a.isolated === b.isolated &&
    a.past === b.past &&
    a.setIsolated === b.setIsolated &&
    sameChoiceInputs(a.detail, b.detail),
);

function ThreadHeaderView({ detail, watch, isolated, setIsolated, past }: HeaderProps) {
  const client = useApi();
  const { shells, refreshThread } = useShells();
  const { thread } = detail;
  const forker = useFork(thread.id);
  const archive = useAction();
  const compact = useAction();
  const promote = useAction();
  const parentId = thread.lineage?.parentThreadId ?? null;
  const parent = parentId ? shells.get(parentId) : undefined;
  const completed = detail.runs.filter((run) => run.status === "completed");
  const hasStableRun = completed.length > 0;
  const current = currentChoice(detail);
  const onModel = useProviderModelLabel(current.provider, current.model || null);
  const isSubagent = thread.lineage?.relationshipToParent === "subagent";
  const busy = detail.runs.some((run) => run.status === "running" || run.status === "waiting");
  // On a phone the details and actions fold into a menu, so the conversation keeps the screen.
  const [menuOpen, setMenuOpen] = useState(false);

  return (
    <header
      className={`thread-header${menuOpen ? " menu-open" : ""}`}
      data-past={past ? "true" : undefined}
    >
      <div className="thread-title-row">
        <StatusDot status={thread.status} />
        <ThreadTitle threadId={thread.id} title={thread.title} />
        <CopyId id={thread.id} what="thread" />
        <span className="muted">{STATUS_LABEL[thread.status]}</span>
        {past ? (
          <span className="badge">as it was then</span>
        ) : (
          <ConnectionBadge watch={watch} label="thread" />
        )}
        <button
          type="button"
          className="icon-button header-menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={`thread-menu-${thread.id}`}
          aria-label={menuOpen ? "Hide thread details and actions" : "Thread details and actions"}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <Ellipsis size={16} aria-hidden />
        </button>
      </div>
      <div className="thread-meta muted" id={`thread-menu-${thread.id}`}>
        <span
          title={`Thread default: ${providerModel(thread.defaultProvider, thread.modelSelection.model)}`}
        >
          On {onModel}
        </span>
        <span>{words(thread.runtimeMode)}</span>
        <span>{thread.runCount} runs</span>
        {thread.usage && (
          <span className="thread-usage" title={`All runs\n${usageDetail(thread.usage)}`}>
            {usageLabel(thread.usage)}
          </span>
        )}
        {thread.worktreePath && (
          // The folder is named by the thread's id: plumbing, so it stays in the tooltip (B16).
          <span title={thread.worktreePath}>own worktree</span>
        )}
        {thread.port != null && (
          <span title="The PORT this thread's agent and setup script get (free for another thread once this one is archived)">
            PORT {thread.port}
          </span>
        )}
        {parentId && (
          <span>
            {thread.lineage?.relationshipToParent ?? "child"} of{" "}
            <Link href={`/threads/${parentId}`}>{parent?.title ?? parentId}</Link>
          </span>
        )}
        {thread.createdBy === "agent" && (
          <span className="badge" title="An outside agent (MCP or ACP client) started this thread">
            started by {thread.agentName ?? "an agent"}
          </span>
        )}
        {thread.archivedAt && <span className="badge">archived</span>}
        {thread.pullRequest && (
          <a
            className="thread-pr"
            href={thread.pullRequest.url}
            target="_blank"
            rel="noreferrer"
            title={`${thread.pullRequest.head} → ${thread.pullRequest.base}`}
          >
            PR #{thread.pullRequest.number} {thread.pullRequest.state}
          </a>
        )}
      </div>
      <div className="thread-actions" hidden={past}>
        <button
          type="button"
          onClick={() => forker.fork({ type: "latest_stable" }, { isolatedWorkspace: isolated })}
          disabled={forker.pending || !hasStableRun}
          title={hasStableRun ? "Fork from the latest completed run" : "No completed run yet"}
        >
          {forker.pending ? "Forking…" : "Fork latest"}
        </button>
        <button
          type="button"
          disabled={compact.pending || thread.runCount === 0 || thread.archivedAt !== null}
          title="Ask the provider to compact this thread's context now (it summarizes the conversation so far)"
          onClick={() =>
            void compact.run(async () => {
              await client.thread.compact.mutate({ threadId: thread.id });
              refreshThread(thread.id);
            })
          }
        >
          {compact.pending ? "Compacting…" : "Compact context"}
        </button>
        {isSubagent && (
          <button
            type="button"
            disabled={promote.pending || busy}
            title={
              busy
                ? "The sub-agent is still working; promote it once its run has ended"
                : "Make this sub-agent's thread a normal thread of its own: listed on its own and no longer stopped with its parent"
            }
            onClick={() =>
              void promote.run(async () => {
                await client.thread.promote.mutate({ threadId: thread.id });
                refreshThread(thread.id);
              })
            }
          >
            {promote.pending ? "Promoting…" : "Promote to thread"}
          </button>
        )}
        <label className="inline">
          <input
            type="checkbox"
            checked={isolated}
            onChange={(event) => setIsolated(event.target.checked)}
          />
          Isolated workspace for forks
        </label>
        {/* B17: commit, push and the pull request live beside the diff they are about. */}
        <Link className="button" href={`/threads/${thread.id}/review`}>
          {thread.pullRequest ? `Pull request #${thread.pullRequest.number}…` : "Commit & PR…"}
        </Link>
        {thread.archivedAt === null ? (
          <button
            type="button"
            disabled={archive.pending}
            onClick={() => {
              if (!confirmArchive(thread.title)) return;
              void archive.run(() => archiveWithUndo(client, thread, refreshThread));
            }}
          >
            Archive thread
          </button>
        ) : (
          <button
            type="button"
            disabled={archive.pending}
            onClick={() =>
              void archive.run(async () => {
                await client.thread.unarchive.mutate({ threadId: thread.id });
                refreshThread(thread.id);
              })
            }
          >
            Unarchive thread
          </button>
        )}
      </div>
      <WorkspaceSetupNotice thread={thread} />
      <ActionError error={forker.failure} prefix="Fork failed." />
      <ActionError error={archive.failure} prefix="Archive or unarchive failed." />
      <ActionError error={compact.failure} prefix="Compaction could not start." />
      <ActionError error={promote.failure} prefix="Promotion failed." />
    </header>
  );
}
