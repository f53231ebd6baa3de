import type { ExcerptParts } from "./excerpt.ts";
import { ShellForest } from "./shell-forest.ts";
import type { Project, ThreadShell } from "./types.ts";

/** One line of the sidebar: a project heading or a thread at some depth of its lineage tree. */
export type SidebarRow =
  | {
      kind: "project";
      key: string;
      projectId: string;
      title: string;
      threadCount: number;
      collapsed: boolean;
    }
  | {
      kind: "thread";
      key: string;
      shell: ThreadShell;
      depth: number;
      /** How this thread relates to the row it is nested under (E2). */
      relationship: "fork" | "subagent" | null;
      /** The lineage names a parent this list does not have (archived or deleted). */
      orphan: boolean;
      childCount: number;
      collapsed: boolean;
      /** Shown only because a descendant matches the search. */
      context: boolean;
      /** Issue 29: found by a message, not its title: that message's text around the match. */
      excerpt: ExcerptParts | null;
    };

export type SidebarOptions = {
  query: string;
  /** Collapsed project ids and thread ids (a collapsed thread hides its forks/subagents). */
  collapsed: ReadonlySet<string>;
  /**
   * Issue 29: threads the server's search found by one of their messages for this query, with
   * the text around the match; they match though their titles do not.
   */
  excerpts?: ReadonlyMap<string, string>;
};

/**
 * Projects, each with its threads as a lineage tree: roots by most recent activity, forks and
 * subagents nested under their source in creation order. With a query, only matching threads and
 * the ancestors that give them context remain, and collapsing is ignored so every match shows.
 * Iterative throughout: a 64-deep fork chain costs no recursion. A list that is rendered again
 * and again (the sidebar's) passes a `ShellForest`, which keeps work between builds.
 */
export function buildSidebarRows(
  projects: readonly Project[],
  shells: ShellForest | Iterable<ThreadShell>,
  options: SidebarOptions,
): SidebarRow[] {
  return (shells instanceof ShellForest ? shells : new ShellForest(shells)).rows(projects, options);
}
