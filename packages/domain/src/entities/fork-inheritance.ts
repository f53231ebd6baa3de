import { z } from "zod";
import { ContextTransferId, ThreadId, TurnItemId } from "../ids.ts";
import { ContextSourcePoint } from "./context-source-point.ts";

/**
 * How a fork reads its source's turn items by reference (P7): source rows with
 * `sortKey <= cutoffSortKey AND (runOrdinal IS NULL OR runOrdinal <= sourceRunOrdinal)`, minus
 * runs the source had already rolled back. Nothing is copied; forks of forks recurse.
 */
export const ForkInheritance = z.object({
  transferId: ContextTransferId,
  sourceThreadId: ThreadId,
  sourcePoint: ContextSourcePoint,
  relationship: z.enum(["fork", "subagent"]),
  /** The source's turn-item sort-key high-water mark when the fork was made. */
  cutoffSortKey: z.number().int().nonnegative(),
  /** The source run the fork starts after; 0 when the source had no settled run. */
  sourceRunOrdinal: z.number().int().nonnegative(),
  /**
   * Runs a person counts before this fork's own first run (its source's offset plus
   * `sourceRunOrdinal`): its run N is shown as run `runOffset + N`, in the UI and in handoffs
   * alike. Absent on forks recorded before it existed.
   */
  runOffset: z.number().int().nonnegative().optional(),
  excludedRunOrdinals: z.array(z.number().int().positive()),
  forkItemId: TurnItemId,
});
export type ForkInheritance = z.infer<typeof ForkInheritance>;
