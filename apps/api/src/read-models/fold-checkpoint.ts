import type { StreamFold } from "@skein/domain";
import type { ThreadOrigin } from "./thread-streams.ts";

/** A stream folded up to a sequence, with what a thread read needs to find its other streams. */
export type FoldAt = {
  fold: StreamFold;
  /** Provider sessions the stream's events name (a thread's reads fold their streams too). */
  sessions: Set<string>;
  /** Where a thread stream came from (its first event). */
  origin: ThreadOrigin;
};

/**
 * A kept fold. A thread's also keeps its compact state (issue 20: the recent runs only), which
 * restores in a fraction of the time a clone of the full state takes. A `partial` one (read back
 * from the store) has only that: its `fold.state` is compact and is never continued in place.
 */
export type Checkpoint = FoldAt & {
  compact?: { text: string; leftOut: ReadonlySet<string> };
  partial?: boolean;
};
