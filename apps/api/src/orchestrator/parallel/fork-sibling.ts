import type { EventStore } from "@skein/db";
import {
  type ForkSourcePointSpec,
  forkTitle,
  resolveForkPoint,
  runOffsetOf,
  turnsThrough,
  type ThreadState,
} from "@skein/domain";

/** Stems whose last number is remembered; past it the oldest is forgotten (and read again). */
const REMEMBERED_STEMS = 1_000;
/** Taken numbers stepped past one by one before a number is given anyway. */
const MAX_PROBES = 100;

type ProjectionReads = Pick<EventStore, "snapshot">;

/**
 * B16: which untitled fork of a source at a point the next one is. The domain titles it
 * ("fork of Main at run 3", then "… (2)"); the next number is one past the highest given at that
 * point in the project's thread list (archived ones too, so a number is not handed out twice).
 *
 * Reading the highest costs a pass over every sibling, so the number this process gave last is
 * remembered per stem, and the next fork only checks that the one after it is still free (one
 * index read). Taken (another instance forked, a thread was titled so), it reads the highest
 * again. A single fork's title is checked free before it is given.
 */
export type ForkSiblings = {
  /** The number the next fork gets, and for `count` forks made together, the first of theirs. */
  next(source: ThreadState, spec: ForkSourcePointSpec, count?: number): Promise<number>;
};

export function forkSiblings(store: ProjectionReads): ForkSiblings {
  const lastGiven = new Map<string, number>();
  const remember = (key: string, value: number) => {
    lastGiven.delete(key);
    lastGiven.set(key, value);
    if (lastGiven.size > REMEMBERED_STEMS) {
      const oldest = lastGiven.keys().next().value;
      if (oldest !== undefined) lastGiven.delete(oldest);
    }
  };
  return {
    async next(source, spec, count = 1) {
      const projectId = source.thread!.projectId;
      const runNumber = runNumberAt(source, spec);
      const titled = (n: number) => forkTitle(source.thread!.title, runNumber, n);
      const stem = titled(1);
      const key = `${projectId}\u0000${stem}`;
      const last = lastGiven.get(key);
      const { data: first } = await store.snapshot(async (q) => {
        const taken = (n: number) => q.titleTaken({ projectId, title: titled(n) });
        if (last !== undefined && count === 1 && !(await taken(last + 1))) return last + 1;
        let n = (await q.highestSibling({ projectId, stem })) + 1;
        // A long source title is cut shorter in a numbered title than in the stem, so those
        // siblings are not counted from the stem: step past the ones taken.
        for (let probe = 0; count === 1 && probe < MAX_PROBES && (await taken(n)); probe += 1)
          n += 1;
        return n;
      });
      remember(key, first + count - 1);
      return first;
    },
  };
}

/** The run number an untitled fork's title names (E3: the source's turns only), null before any. */
function runNumberAt(source: ThreadState, spec: ForkSourcePointSpec): number | null {
  const { run } = resolveForkPoint(source, spec);
  const runNumber =
    runOffsetOf(source.inheritance) + turnsThrough(run?.ordinal ?? 0, source.asideRuns);
  return runNumber > 0 ? runNumber : null;
}
