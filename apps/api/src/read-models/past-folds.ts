import type { EventStore, StoredEvent } from "@skein/db";
import {
  compactStateWithKeys,
  continueStreamFold,
  copyStreamFold,
  HistoryNeeded,
  type LoggedEvent,
  newStreamFold,
  restoreCompactState,
  type ThreadState,
} from "@skein/domain";
import { silentLogger, type Logger } from "../orchestrator/logger.ts";
import { STORED_PER_STREAM, StoredFolds } from "./stored-folds.ts";
import type { Checkpoint, FoldAt } from "./fold-checkpoint.ts";
import { originOf, sessionIdsIn, type ThreadOrigin } from "./thread-streams.ts";

/** Stream events between two kept checkpoints of a stream's fold. */
const CHECKPOINT_EVERY = 1_000;
/** Checkpoints kept for one stream; more are thinned where they stand closest together. */
const PER_STREAM = 8;
/** Checkpoints kept in all; the least recently read streams lose theirs first. */
const IN_ALL = 24;

export type PastFoldsOptions = {
  /** Stream events between two checkpoints; default 1,000. */
  every?: number;
  /** Checkpoints kept in memory per stream; default 8. */
  perStream?: number;
  /** Checkpoints kept in memory in all; default 24. */
  inAll?: number;
  /** Checkpoints kept in the store per stream; 0 keeps them in memory only. Default 8. */
  storedPerStream?: number;
  log?: Logger;
};

/**
 * The checkpoint continued over `events` from its compact state, or null when those events need
 * history the compact state left out (then the caller continues from a clone of the full one).
 * A compact state never answers differently from the full one, only less.
 */
function resumeCompact(
  base: Checkpoint,
  events: readonly StoredEvent[],
  every: number,
  keep: (at: Checkpoint) => void,
): FoldAt | null {
  const state = base.compact ? restoreCompactState(base.compact.text, base.compact.leftOut) : null;
  if (!state || !base.compact) return null;
  const leftOut = base.compact.leftOut;
  const at: FoldAt = {
    fold: { ...base.fold, state, rows: new Map(base.fold.rows) },
    sessions: new Set(base.sessions),
    origin: base.origin,
  };
  try {
    // Boundaries crossed are kept as partial checkpoints too (their compact state, with the keys
    // left out carried over), so scrubbing on from a stored one also starts near where it reads.
    let from = 0;
    events.forEach((event, index) => {
      if (event.streamVersion % every !== 0) return;
      advance(at, events.slice(from, index + 1));
      from = index + 1;
      const compact = compactStateWithKeys(at.fold.state as ThreadState, leftOut);
      // A partial checkpoint's state is never read: a resume restores it from `compact`.
      keep({
        fold: { ...at.fold, rows: new Map(at.fold.rows) },
        sessions: new Set(at.sessions),
        origin: at.origin,
        compact,
        partial: true,
      });
    });
    advance(at, events.slice(from));
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

/** Folds `events` (the stream's next ones, in order) into `at`. */
export function advance(at: FoldAt, events: readonly StoredEvent[]): void {
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
 * multiples of `every` events of that stream, and a read at a sequence continues from the
 * nearest checkpoint at or before it, reading only the events in between. The log below a
 * committed sequence never changes, so a checkpoint never goes stale. Checkpoints are kept in
 * memory (bounded by count) and, written in the background, in the store (`StoredFolds`), so
 * the first read after a restart starts near its point too. Losing one costs only a longer fold.
 */
export class PastFolds {
  private readonly byStream = new Map<string, Checkpoint[]>();
  private kept = 0;
  private readonly every: number;
  private readonly perStream: number;
  private readonly inAll: number;
  private readonly stored: StoredFolds | null;

  constructor(options: PastFoldsOptions = {}) {
    this.every = options.every ?? CHECKPOINT_EVERY;
    this.perStream = options.perStream ?? PER_STREAM;
    this.inAll = options.inAll ?? IN_ALL;
    const storedPerStream = options.storedPerStream ?? STORED_PER_STREAM;
    this.stored =
      storedPerStream > 0 ? new StoredFolds(options.log ?? silentLogger, storedPerStream) : null;
  }

  /** The stream folded up to `upTo` (inclusive); version 0 when it had no event by then. */
  async at(store: EventStore, streamId: string, upTo: number): Promise<FoldAt> {
    let base = this.nearest(streamId, upTo, false);
    // After a restart memory holds nothing: a stored checkpoint nearer than memory's is read.
    const loaded = await this.stored?.load(store, streamId, upTo, base?.fold.version ?? 0);
    if (loaded) {
      this.counts.loaded += 1;
      this.keep(store, streamId, loaded);
      base = loaded;
    }
    let events = await store.readStream(streamId, base?.fold.sequence ?? 0, upTo);
    // Readers only read a fold's rows: a checkpoint that is already there is answered as it is.
    if (base && events.length === 0) return base;
    const last = events.findLastIndex((event) => event.streamVersion % this.every === 0);
    if (base && (base.partial || last < 0)) {
      const resumed = resumeCompact(base, events, this.every, (kept) =>
        this.keep(store, streamId, kept),
      );
      if (resumed) {
        this.counts.compact += 1;
        this.counts.folded += events.length;
        return resumed;
      }
    }
    if (base?.partial) {
      // The events need history its compact state left out: fold from a whole one below it.
      this.counts.refolded += 1;
      base = this.nearest(streamId, upTo, true);
      events = await store.readStream(streamId, base?.fold.sequence ?? 0, upTo);
    }
    if (base) this.counts.full += 1;
    this.counts.folded += events.length;
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
      this.keep(store, streamId, current);
    });
    advance(current, events.slice(from));
    return current;
  }

  /**
   * Reads continued from a checkpoint's compact state and from a clone of its full state,
   * checkpoints loaded from the store, loaded ones that could not serve a read (it needed
   * history they left out), and events folded in all (for tests and benches).
   */
  readonly counts = { compact: 0, full: 0, loaded: 0, refolded: 0, folded: 0 };

  /** Stream events between two checkpoints (the background checkpointer uses the same). */
  get interval(): number {
    return this.every;
  }

  /** Where checkpoints are stored, or null when they are kept in memory only. */
  get storedFolds(): StoredFolds | null {
    return this.stored;
  }

  /** How many checkpoints are kept in memory (for tests and metrics). */
  get size(): number {
    return this.kept;
  }

  /** Resolves once the checkpoints queued for the store are written (tests, benches). */
  async flush(): Promise<void> {
    await this.stored?.flush();
  }

  private nearest(streamId: string, upTo: number, whole: boolean): Checkpoint | undefined {
    const checkpoints = this.byStream.get(streamId);
    if (!checkpoints) return undefined;
    // Most recently read last, so eviction takes the first entries.
    this.byStream.delete(streamId);
    this.byStream.set(streamId, checkpoints);
    return checkpoints.findLast((c) => c.fold.sequence <= upTo && !(whole && c.partial));
  }

  /** Keeps a checkpoint in memory and, when it is a whole fold, in the store. */
  private keep(store: EventStore, streamId: string, at: FoldAt | Checkpoint): void {
    const checkpoints = this.byStream.get(streamId) ?? [];
    const same = checkpoints.findIndex((c) => c.fold.version === at.fold.version);
    // A whole fold replaces a partial one read back from the store; otherwise the first stays.
    if (same >= 0 && !(checkpoints[same]!.partial && !("partial" in at && at.partial))) return;
    let kept: Checkpoint;
    if ("partial" in at && at.partial) {
      kept = at;
    } else {
      kept = copyOf(at);
      if (at.fold.state.kind === "thread") {
        kept.compact = compactStateWithKeys(at.fold.state as ThreadState);
      }
      this.stored?.save(store, kept);
    }
    if (same >= 0) {
      checkpoints[same] = kept;
      return;
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
