"use client";
import { useShells } from "../../lib/shells-store.tsx";
import { relativizeText } from "../../lib/workspace-path.ts";
import { DiffView } from "../common/diff-view.tsx";
import { ScrollPre } from "../common/scroll-box.tsx";

/** The thread's workspace: its own worktree, else its project's root. */
export function useWorkspaceOf(threadId: string): string | null {
  const { shells, projects } = useShells();
  const shell = shells.get(threadId);
  if (!shell) return null;
  return (
    shell.worktreePath ?? projects.find((p) => p.id === shell.projectId)?.workspaceRoot ?? null
  );
}

/**
 * B16: what a request approves, under its title: the command and where it runs (paths relative
 * to the thread's workspace), then the diff a file change plans (its `@@ path @@` lines start
 * each file). The same in the conversation and on the Approvals page.
 */
export function ApprovalDetail({ threadId, detail }: { threadId: string; detail: string | null }) {
  const workspace = useWorkspaceOf(threadId);
  if (!detail) return null;
  const lines = relativizeText(detail, workspace).split("\n");
  const firstDiff = lines.findIndex((line) => /^@@ .* @@$/.test(line));
  const head = firstDiff === -1 ? lines : lines.slice(0, firstDiff);
  const diff = firstDiff === -1 ? null : lines.slice(firstDiff).join("\n");
  return (
    <>
      {head.length > 0 && <ScrollPre className="approval-detail">{head.join("\n")}</ScrollPre>}
      {diff !== null && <DiffView diff={diff} label="The change to approve" />}
    </>
  );
}
