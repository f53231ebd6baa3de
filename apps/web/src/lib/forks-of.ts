import type { ThreadShell } from "./types.ts";

/** A thread's own forks (not sub-agents), oldest first. */
export function forksOf(shells: ReadonlyMap<string, ThreadShell>, threadId: string): ThreadShell[] {
  return [...shells.values()]
    .filter(
      (shell) =>
        shell.lineage?.parentThreadId === threadId && shell.lineage.relationshipToParent === "fork",
    )
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
}
