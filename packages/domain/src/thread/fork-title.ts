import type { ForkInheritance } from "../entities/fork-inheritance.ts";

import { autoTitle } from "./auto-title.ts";

/** NameText's bound: a title longer than this would be refused. */
const NAME_MAX = 200;

/**
 * Runs a person counts before a fork's first own run: a fork at run 2 starts with run 3, through
 * forks of forks. Forks recorded before `runOffset` existed knew only their own fork point.
 */
export function runOffsetOf(
  inheritance: Pick<ForkInheritance, "sourceRunOrdinal" | "runOffset"> | null | undefined,
): number {
  if (!inheritance) return 0;
  return inheritance.runOffset ?? inheritance.sourceRunOrdinal;
}

/** The run number a person reads for a thread's own run `ordinal` (one numbering everywhere). */
export function displayRunNumber(
  inheritance: Pick<ForkInheritance, "sourceRunOrdinal" | "runOffset"> | null | undefined,
  ordinal: number,
): number {
  return runOffsetOf(inheritance) + ordinal;
}

/**
 * B16: the title of a fork made without one says where it came from ("fork of Main at run 3"),
 * and a second untitled fork at the same point is numbered apart ("… at run 3 (2)"). The source
 * title is shortened, never the part that tells siblings apart.
 */
export function forkTitle(sourceTitle: string, runNumber: number | null, sibling = 1): string {
  const prefix = "fork of ";
  const suffix = `${runNumber ? ` at run ${runNumber}` : ""}${sibling > 1 ? ` (${sibling})` : ""}`;
  const room = NAME_MAX - prefix.length - suffix.length;
  const base = sourceTitle.length > room ? `${sourceTitle.slice(0, room - 1)}…` : sourceTitle;
  return `${prefix}${base}${suffix}`;
}

/**
 * B16: a sub-agent's child thread is titled by its task (first line, cut at a word). A runtime
 * that reports only the sub-agent's path (Codex's "/root/helper") gives its name, "helper".
 */
export function subagentTitle(task: string | undefined): string {
  const text = task?.trim() ?? "";
  const path = /^\/\S*$/.test(text) ? text.split("/").filter(Boolean).at(-1) : undefined;
  return (path ?? autoTitle(text)) || "Sub-agent";
}
