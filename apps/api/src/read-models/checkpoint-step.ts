import type { EventStore, StoredEvent } from "@skein/db";
import {
  compactStateWithKeys,
  HistoryNeeded,
  newStreamFold,
  type ThreadState,
} from "@skein/domain";
import type { Checkpoint } from "./fold-checkpoint.ts";
import { advance } from "./past-folds.ts";
import type { StoredFolds } from "./stored-folds.ts";

/** Events folded between two yields to the event loop, so a step never holds commands up long. */
const SLICE = 250;

export type StepOptions = {
  /** Stream events between two checkpoints. */
  every: number;
  /** The boundary the step folds to: the only checkpoint it writes. */
  upTo: number;
  /** Checked between slices: a stopping checkpointer neither folds on nor writes. */
  stopped: () => boolean;
};

/** What one step did (for tests and benches). */
export type StepOutcome = { folded: number; saved: number; continued: boolean; refolded: boolean };

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Folds `events` into `at` slice by slice and stores a checkpoint at each multiple of `every`
 * (above sequence `above`), waiting for each write before folding on, so the stored copy is
 * the state as it stood there. `leftBefore`: the keys a restored compact thread state left out.
 */
async function foldAndStore(
  store: EventStore,
  stored: StoredFolds,
  at: Checkpoint,
  events: readonly StoredEvent[],
  leftBefore: ReadonlySet<string> | undefined,
  above: number,
  options: StepOptions,
): Promise<number> {
  let saved = 0;
  for (let from = 0; from < events.length; from += SLICE) {
    if (options.stopped()) return saved;
    const slice = events.slice(from, from + SLICE);
    let start = 0;
    for (let i = 0; i < slice.length; i += 1) {
      if (slice[i]!.streamVersion % options.every !== 0) continue;
      advance(at, slice.slice(start, i + 1));
      start = i + 1;
      if (options.stopped()) return saved;
      // Catching up over several boundaries (a burst), only the last is written: each write
      // encodes the whole fold, and the store would thin most of them away again.
      if (at.fold.sequence <= above || at.fold.sequence < options.upTo) continue;
      const compact =
        at.fold.state.kind === "thread"
          ? compactStateWithKeys(at.fold.state as ThreadState, leftBefore)
          : undefined;
      // Never `partial`, even continued from a stored one: this fold is written again.
      const { fold, sessions, origin } = at;
      stored.save(store, { fold, sessions, origin, ...(compact ? { compact } : {}) });
      await stored.flush();
      saved += 1;
    }
    advance(at, slice.slice(start));
    await yieldToLoop();
  }
  return saved;
}

/**
 * B8 background checkpoint: the stream folded from its nearest stored checkpoint (or its start)
 * up to the boundary `upTo`, and a checkpoint stored there, through the same
 * `StoredFolds` a past read writes with (same format, same thinning). A thread's stored
 * checkpoint holds only its compact state; when the events after it need history that state
 * left out, the stream is folded from its start instead (rare: new events touch recent runs).
 */
export async function checkpointStream(
  store: EventStore,
  stored: StoredFolds,
  streamId: string,
  upTo: number,
  options: Omit<StepOptions, "upTo">,
): Promise<StepOutcome> {
  const step = { ...options, upTo };
  const base = await stored.load(store, streamId, upTo, 0);
  if (base && base.fold.sequence >= upTo)
    return { folded: 0, saved: 0, continued: false, refolded: false };
  const after = base?.fold.sequence ?? 0;
  const events = await store.readStream(streamId, after, upTo);
  if (base) {
    // A fresh decode, owned by this step: folded on in place.
    try {
      const leftOut = base.compact?.leftOut;
      const saved = await foldAndStore(store, stored, base, events, leftOut, after, step);
      return { folded: events.length, saved, continued: true, refolded: false };
    } catch (error) {
      if (!(error instanceof HistoryNeeded)) throw error;
    }
  }
  const whole = await store.readStream(streamId, 0, upTo);
  const start: Checkpoint = {
    fold: newStreamFold(streamId),
    sessions: new Set(),
    origin: { projectId: null, sourceThreadId: null },
  };
  // Boundaries at or below the stored one are there already; only the ones above are written.
  const saved = await foldAndStore(store, stored, start, whole, undefined, after, step);
  return { folded: whole.length, saved, continued: false, refolded: base !== null };
}
