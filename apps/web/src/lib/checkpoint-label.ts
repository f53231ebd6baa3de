import { runHeaderLabel } from "./run-label.ts";
import type { AsideRunsOf } from "./run-numbering.ts";
import type { Run } from "./types.ts";

/** Run header names that are not numbers, as they read inside a sentence. */
const IN_A_SENTENCE: Record<string, string> = {
  Compaction: "the compaction",
  "Imported turn": "the imported turn",
  "System run": "the system run",
  "Uncounted run": "an uncounted run",
};

/**
 * E3: the run a checkpoint follows, as a person counts runs: `run 2` (the run header's number,
 * not the ordinal, so a compaction before it does not push it on), or `the compaction` for a
 * checkpoint of a run that is not a turn. For "After …", "Diff of …", "checkpoint after …".
 */
export function checkpointRunPhrase(
  run: Pick<Run, "compact" | "imported" | "conversationNumber"> | undefined,
  threadId: string,
  appRunOrdinal: number | null,
  numberOf: (threadId: string, ordinal: number) => number,
  asideRunsOf?: AsideRunsOf,
): string {
  const label = runHeaderLabel(run, threadId, appRunOrdinal, numberOf, asideRunsOf);
  return IN_A_SENTENCE[label] ?? `run ${label.replace(/^Run /, "")}`;
}
