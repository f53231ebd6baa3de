import type { EventStore } from "@skein/db";
import {
  type ForkSourcePointSpec,
  forkTitle,
  resolveForkPoint,
  runOffsetOf,
  turnsThrough,
  type ThreadState,
} from "@skein/domain";

/** Forks of one source at one point counted for numbering; more than this share a number. */
const MAX_COUNTED = 500;

/**
 * B16: which untitled fork of `source` at this point the next one is. The domain titles it
 * ("fork of Main at run 3", then "… (2)"); this counts the titles already given at that point in
 * the project's thread list (archived ones too, so a number is not handed out twice).
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
  const { data: titles } = await store.snapshot((q) =>
    q.numberedTitles({ projectId: thread.projectId, stem, limit: MAX_COUNTED }),
  );
  let highest = 0;
  for (const title of titles) {
    if (title === stem) highest = Math.max(highest, 1);
    const numbered = title.startsWith(`${stem} (`)
      ? /^ \((\d+)\)$/.exec(title.slice(stem.length))
      : null;
    if (numbered) highest = Math.max(highest, Number(numbered[1]));
  }
  return highest + 1;
}
