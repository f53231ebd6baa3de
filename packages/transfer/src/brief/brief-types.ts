import type { ThreadId } from "../inputs.ts";

/** Where a fact was said: a covered run, by thread and ordinal (ids stay out of the text). */
export type RunRef = { readonly threadId: ThreadId; readonly ordinal: number };

export type FactKind = "goal" | "decision" | "constraint" | "preference" | "task";

/** One statement in force (or no longer in force), quoted from the run that said it. */
export type BriefFact = {
  readonly kind: FactKind;
  readonly text: string;
  /** Who said it: the person, an agent, or a todo list the runtime reported (E17). */
  readonly by: "person" | "agent" | "todo";
  readonly run: RunRef;
  /** Todo steps: the step's status as last reported. */
  readonly status?: "pending" | "running" | "completed";
  /** Set when a later run closed, reversed or replaced it. */
  readonly closedBy?: RunRef;
};

/**
 * A file the covered runs changed: every change counted, only its latest state shown. From a net
 * diff (`net`), its counts and diff are git's from the base to the source point, and a file no
 * covered run changed (the person's uncommitted edit) has no `lastRun` and 0 changes.
 */
export type BriefFile = {
  readonly fileName: string;
  readonly changes: number;
  readonly additions: number | null;
  readonly deletions: number | null;
  readonly lastRun: RunRef | null;
  /** The latest change's diff (or new text), or the net diff, capped; null when none is known. */
  readonly latestDiff: string | null;
  readonly net?: true;
};

/** A command that failed and did not succeed again later in the covered runs. */
export type BriefError = {
  readonly command: string;
  readonly exitCode: number | null;
  readonly output: string | null;
  readonly run: RunRef;
};

export type BriefExchange = {
  readonly run: RunRef;
  readonly user: string | null;
  readonly assistant: string | null;
};

/**
 * The structured head of a handoff (issue 25): what the target reads first. Every item cites its
 * run; `left` counts what was extracted but did not fit the brief's share of the budget (all of
 * it stays searchable through `skein_history`).
 */
export type HandoffBrief = {
  readonly goal: readonly BriefFact[];
  readonly decisions: readonly BriefFact[];
  readonly constraints: readonly BriefFact[];
  readonly preferences: readonly BriefFact[];
  readonly openTasks: readonly BriefFact[];
  readonly files: readonly BriefFile[];
  readonly errors: readonly BriefError[];
  readonly closed: readonly BriefFact[];
  readonly lastExchange: BriefExchange | null;
  readonly left: Readonly<Record<BriefSection, number>>;
  /**
   * Issue 25 item 2: `files` is git's net diff between these points (`from` null: the thread's
   * start), uncommitted changes included. Absent: the runs' own file changes (no checkpoints).
   */
  readonly netDiff?: { readonly from: RunRef | null; readonly to: RunRef | null };
};

export type BriefSection =
  | "goal"
  | "decisions"
  | "constraints"
  | "preferences"
  | "openTasks"
  | "files"
  | "errors"
  | "closed";

export const BRIEF_SECTIONS: readonly BriefSection[] = [
  "goal",
  "decisions",
  "constraints",
  "preferences",
  "openTasks",
  "files",
  "errors",
  "closed",
];
