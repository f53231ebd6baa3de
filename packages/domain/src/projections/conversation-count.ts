import type { Checkpoint } from "../entities/checkpoint.ts";
import type { CheckpointScope } from "../entities/checkpoint-scope.ts";
import type { Run } from "../entities/run.ts";
import type { TurnItem } from "../entities/turn-item.ts";

/** The flags that take a run out of the conversation's count (absent on ordinary runs). */
export type ConversationFlags = Pick<Run, "compact" | "imported"> & {
  /** A run Skein started on its own rather than for a message of the person's. */
  system?: true | undefined;
};

/**
 * E3: whether a run is a turn of the conversation, advancing the visible turn count and the
 * checkpoint count. A compaction run (the provider only shrinks its context), a run imported from
 * an adopted native thread's history (B6: it happened before Skein) and a system run do not; all
 * of them stay runs (ordinals, coverage and the execution graph keep them).
 */
export function countsForConversation(run: ConversationFlags): boolean {
  return run.compact !== true && run.imported !== true && run.system !== true;
}

/** Runs that no longer stand in the conversation: never ran, or undone by a rollback. */
const GONE: ReadonlySet<Run["status"]> = new Set(["cancelled", "rolled_back"]);

export type ConversationCounts = {
  /** Counted runs that stand (not cancelled, not rolled back). */
  turnCount: number;
  /** Ready root-run checkpoints of counted runs that stand. */
  checkpointCount: number;
  /** The turn number a person sees, by run id; runs that do not count have none. */
  turnNumbers: ReadonlyMap<string, number>;
};

/**
 * E3/E7: the conversation's numbering over a thread's runs (any order; numbered by ordinal),
 * continuing after `turnsBefore` (the turns of runs before these, e.g. before a window, or a
 * fork's inherited turns). A checkpoint counts when its scope advances the run count (E6) and its
 * run counts; child-scope checkpoints never do (without `scopes`, every ready checkpoint of a
 * counted run).
 */
export function conversationCounts(
  runs: readonly Run[],
  checkpoints: readonly Checkpoint[] = [],
  scopes: readonly CheckpointScope[] = [],
  turnsBefore = 0,
): ConversationCounts {
  const turnNumbers = new Map<string, number>();
  let turn = turnsBefore;
  for (const run of [...runs].sort((a, b) => a.ordinal - b.ordinal)) {
    if (!countsForConversation(run) || GONE.has(run.status)) continue;
    turn += 1;
    turnNumbers.set(run.id, turn);
  }
  const advancing = new Set(scopes.filter((s) => s.advancesAppRunCount).map((s) => s.id));
  const checkpointCount = checkpoints.filter(
    (c) =>
      c.status === "ready" &&
      c.runId !== null &&
      turnNumbers.has(c.runId) &&
      (scopes.length === 0 || advancing.has(c.scopeId)),
  ).length;
  return { turnCount: turn - turnsBefore, checkpointCount, turnNumbers };
}

/**
 * E3/E16: whether an item is part of the conversation's count: items of a run that does not
 * count (a compaction item, an imported turn's messages) are shown, but advance nothing.
 */
export function itemCountsForConversation(
  item: Pick<TurnItem, "runId">,
  runsById: ReadonlyMap<string, ConversationFlags>,
): boolean {
  if (item.runId === null) return false;
  const run = runsById.get(item.runId);
  return run !== undefined && countsForConversation(run);
}
