import { isAsideOrdinal } from "@skein/domain/run-number";
import type { AsideRunsOf } from "./run-numbering.ts";
import type { Run } from "./types.ts";

type LabelledRun = Pick<Run, "compact" | "imported" | "conversationNumber">;

/**
 * E3: what a run header calls its run. A compaction or imported run is not a turn of the
 * conversation, so it is named, not numbered; a turn shows the number the detail read gave it
 * (continuing across forks). An inherited run has no run row here: its source's shell says
 * whether it is a turn, and its number follows from the lineage.
 */
export function runHeaderLabel(
  run: LabelledRun | undefined,
  threadId: string,
  ordinal: number | null,
  numberOf: (threadId: string, ordinal: number) => number,
  asideRunsOf?: AsideRunsOf,
): string {
  if (run?.compact) return "Compaction";
  if (run?.imported) return "Imported turn";
  if (run !== undefined && run.conversationNumber !== undefined) {
    return run.conversationNumber === null ? "System run" : `Run ${run.conversationNumber}`;
  }
  if (ordinal === null) return "Run ?";
  if (asideRunsOf && isAsideOrdinal(ordinal, asideRunsOf(threadId))) return "Uncounted run";
  return `Run ${numberOf(threadId, ordinal)}`;
}
