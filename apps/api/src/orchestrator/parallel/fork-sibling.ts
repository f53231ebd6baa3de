import type { EventStore } from "@skein/db";
import {
  type ForkSourcePointSpec,
  forkTitle,
  resolveForkPoint,
  runOffsetOf,
  turnsThrough,
  type ThreadState,
} from "@skein/domain";

/**
 * B16: which untitled fork of `source` at this point the next one is. The domain titles it
 * ("fork of Main at run 3", then "… (2)"); the next number is one past the highest already given
 * at that point in the project's thread list (archived ones too, so a number is not handed out
 * twice).
 */
export async function nextForkSibling(
  store: EventStore,
  source: ThreadState,
  spec: ForkSourcePointSpec,
): Promise<number> {
  const thread = source.thread!;
  const { run } = resolveForkPoint(source, spec);
  // The same number the fork's title gets (E3: the source's turns only).
  const runNumber =
    runOffsetOf(source.inheritance) + turnsThrough(run?.ordinal ?? 0, source.asideRuns);
  const stem = forkTitle(thread.title, runNumber > 0 ? runNumber : null);
  const { data: highest } = await store.snapshot((q) =>
    q.highestSibling({ projectId: thread.projectId, stem }),
  );
  return highest + 1;
}
