/**
 * B8: which stored fold checkpoints of a stream to drop so at most `keep` (at least 2) remain (versions
 * ascending in, versions to drop out). The first and the newest always stay (the first bounds
 * every read near the start, the newest serves reads near the head); the others go where they
 * stand closest to their predecessor, so those kept stay spread over the whole history.
 */
export function checkpointsToThin(versions: readonly number[], keep: number): number[] {
  const kept = [...versions].sort((a, b) => a - b);
  const dropped: number[] = [];
  const floor = Math.max(keep, 2);
  while (kept.length > floor) {
    let drop = 1;
    for (let i = 2; i < kept.length - 1; i += 1) {
      if (kept[i]! - kept[i - 1]! < kept[drop]! - kept[drop - 1]!) drop = i;
    }
    dropped.push(...kept.splice(drop, 1));
  }
  return dropped;
}
