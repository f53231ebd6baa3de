/** An inclusive range of run ordinals. */
export type OrdinalRange = { readonly from: number; readonly to: number };

/** Compresses ordinals into sorted, maximal inclusive ranges (duplicates ignored). */
export function toRanges(ordinals: Iterable<number>): OrdinalRange[] {
  const sorted = [...new Set(ordinals)].sort((a, b) => a - b);
  const ranges: OrdinalRange[] = [];
  let from: number | null = null;
  let to = 0;
  for (const n of sorted) {
    if (from !== null && n === to + 1) {
      to = n;
      continue;
    }
    if (from !== null) ranges.push({ from, to });
    from = n;
    to = n;
  }
  if (from !== null) ranges.push({ from, to });
  return ranges;
}

export function rangeContains(range: OrdinalRange, ordinal: number): boolean {
  return ordinal >= range.from && ordinal <= range.to;
}

/** Smallest and largest ordinal, or null for an empty list. */
export function span(ordinals: readonly number[]): OrdinalRange | null {
  if (ordinals.length === 0) return null;
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const n of ordinals) {
    if (n < from) from = n;
    if (n > to) to = n;
  }
  return { from, to };
}

function formatRange(range: OrdinalRange): string {
  return range.from === range.to ? `${range.from}` : `${range.from}–${range.to}`;
}

/**
 * "1–5, 7, 9–12". Long lists are capped so a heavily interleaved thread cannot blow up a
 * preamble that must always fit the token budget.
 */
export function formatRanges(ranges: readonly OrdinalRange[], maxRanges = 6): string {
  if (ranges.length === 0) return "none";
  const shown = ranges.slice(0, maxRanges).map(formatRange).join(", ");
  const hidden = ranges.length - maxRanges;
  return hidden > 0 ? `${shown} (+${hidden} more ranges)` : shown;
}

/** "run 3" or "runs 2–740" / "runs 1–5, 7". */
export function formatRunRanges(ranges: readonly OrdinalRange[], maxRanges = 6): string {
  const single = ranges.length === 1 && ranges[0] !== undefined && ranges[0].from === ranges[0].to;
  return `${single ? "run" : "runs"} ${formatRanges(ranges, maxRanges)}`;
}
