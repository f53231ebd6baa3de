import type { EventStore, StoredEvent } from "@skein/db";
import {
  compactStateWithKeys,
  continueStreamFold,
  copyStreamFold,
  HistoryNeeded,
  type LoggedEvent,
  newStreamFold,
  restoreCompactState,
  type StreamFold,
  type ThreadState,
} from "@skein/domain";
import { originOf, sessionIdsIn, type ThreadOrigin } from "./thread-streams.ts";

/** Stream events between two kept checkpoints of a stream's fold. */
const CHECKPOINT_EVERY = 1_000;
/** Checkpoints kept for one stream; more are thinned where they stand closest together. */
const PER_STREAM = 8;
/** Checkpoints kept in all; the least recently read streams lose theirs first. */
const IN_ALL = 24;

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
 * restores in a fraction of the time a clone of the full state takes.
 */
type Checkpoint = FoldAt & { compact?: { text: string; leftOut: ReadonlySet<string> } };

/**
 * The checkpoint continued over `events` from its compact state, or null when those events need
 * history the compact state left out (then the caller continues from a clone of the full one).
 * A compact state never answers differently from the full one, only less.
 */
function resumeCompact(base: Checkpoint, events: readonly StoredEvent[]): FoldAt | null {
  const state = base.compact ? restoreCompactState(base.compact.text, base.compact.leftOut) : null;
  if (!state) return null;
  const at: FoldAt = {
    fold: { ...base.fold, state, rows: new Map(base.fold.rows) },
    sessions: new Set(base.sessions),
    origin: base.origin,
  };
  try {
    advance(at, events);
  } catch (error) {
    if (error instanceof HistoryNeeded) return null;
    throw error;
  }
  return at;
}

const NO_ORIGIN: ThreadOrigin = { projectId: null, sourceThreadId: null };

function copyOf(at: FoldAt): FoldAt {
  return { fold: copyStreamFold(at.fold), sessions: new Set(at.sessions), origin: at.origin };
}

function advance(at: FoldAt, events: readonly StoredEvent[]): void {
  if (events.length === 0) return;
  if (at.fold.version === 0) at.origin = originOf(events);
  continueStreamFold(
    at.fold,
    events.map(
      ({ type, data, sequence, streamVersion }) =>
        ({ type, data, sequence, streamVersion }) as LoggedEvent & { streamVersion: number },
    ),
  );
  sessionIdsIn(
    events.map((event) => event.data),
    at.sessions,
  );
}

/**
 * B8 past reads without replaying whole histories: folds of a stream are kept as checkpoints at
 * multiples of CHECKPOINT_EVERY events of that stream, and a read at a sequence continues from
 * the nearest checkpoint at or before it, reading only the events in between. The log below a
 * committed sequence never changes, so a checkpoint never goes stale; it is memory only, bounded
 * by count, and losing one costs only a longer fold.
 */
export class PastFolds {
  private readonly byStream = new Map<string, Checkpoint[]>();
  private kept = 0;

  constructor(
    private readonly every = CHECKPOINT_EVERY,
    private readonly perStream = PER_STREAM,
    private readonly inAll = IN_ALL,
  ) {}

  /** The stream folded up to `upTo` (inclusive); version 0 when it had no event by then. */
  async at(store: EventStore, streamId: string, upTo: number): Promise<FoldAt> {
    const checkpoints = this.byStream.get(streamId);
    if (checkpoints) {
      // Most recently read last, so eviction takes the first entries.
      this.byStream.delete(streamId);
      this.byStream.set(streamId, checkpoints);
    }
    const base = checkpoints?.findLast((checkpoint) => checkpoint.fold.sequence <= upTo);
    const events = await store.readStream(streamId, base?.fold.sequence ?? 0, upTo);
    // Readers only read a fold's rows: a checkpoint that is already there is answered as it is.
    if (base && events.length === 0) return base;
    const last = events.findLastIndex((event) => event.streamVersion % this.every === 0);
    if (base && last < 0) {
      const resumed = resumeCompact(base, events);
      if (resumed) {
        this.counts.compact += 1;
        return resumed;
      }
    }
    if (base) this.counts.full += 1;
    const current: FoldAt = base
      ? copyOf(base)
      : { fold: newStreamFold(streamId), sessions: new Set(), origin: NO_ORIGIN };
    // Every checkpoint position on the way is kept (thinned past PER_STREAM), so scrubbing back
    // from here also starts near where it reads.
    let from = 0;
    events.forEach((event, index) => {
      if (event.streamVersion % this.every !== 0) return;
      advance(current, events.slice(from, index + 1));
      from = index + 1;
      this.keep(streamId, current);
    });
    advance(current, events.slice(from));
    return current;
  }

  /** Reads continued from a checkpoint's compact state, and from a clone of its full state. */
  readonly counts = { compact: 0, full: 0 };

  /** How many checkpoints are kept (for tests and metrics). */
  get size(): number {
    return this.kept;
  }

  private keep(streamId: string, at: FoldAt): void {
    const checkpoints = this.byStream.get(streamId) ?? [];
    if (checkpoints.some((checkpoint) => checkpoint.fold.version === at.fold.version)) return;
    const kept: Checkpoint = copyOf(at);
    if (at.fold.state.kind === "thread") {
      kept.compact = compactStateWithKeys(at.fold.state as ThreadState);
    }
    checkpoints.push(kept);
    checkpoints.sort((a, b) => a.fold.version - b.fold.version);
    this.byStream.set(streamId, checkpoints);
    this.kept += 1;
    if (checkpoints.length > this.perStream) {
      // Drop the checkpoint nearest the one before it: the others stay spread over the history.
      let drop = 1;
      for (let i = 2; i < checkpoints.length - 1; i += 1) {
        const gap = checkpoints[i]!.fold.version - checkpoints[i - 1]!.fold.version;
        const best = checkpoints[drop]!.fold.version - checkpoints[drop - 1]!.fold.version;
        if (gap < best) drop = i;
      }
      checkpoints.splice(drop, 1);
      this.kept -= 1;
    }
    for (const [oldest, list] of this.byStream) {
      if (this.kept <= this.inAll || oldest === streamId) break;
      this.byStream.delete(oldest);
      this.kept -= list.length;
    }
  }
}
