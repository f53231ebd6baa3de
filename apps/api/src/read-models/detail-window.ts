import type { ProjectionQuery } from "@skein/db";
import {
  type ForkInheritance,
  isInheritedRow,
  type ProjectionRow,
  type ThreadShell,
  type TurnItem,
  ValidationError,
} from "@skein/domain";
import { typedRows } from "./rows.ts";
import type { DetailWindow, DetailWindowInput } from "@skein/contract";
import { MAX_WINDOW_RUNS } from "@skein/contract/limits";

/** Defined by the contract (the router's output types); re-exported for the read side. */
export type { DetailWindow, DetailWindowInput };

/** Runs per window when the caller names no size (the contract's MAX_WINDOW_RUNS caps it). */
export const DEFAULT_WINDOW_RUNS = 50;

/** Forks of forks of … are followed at most this deep (the domain's own recursion bound). */
const MAX_FORK_DEPTH = 64;

/**
 * One thread's runs as they appear in the conversation: the thread itself (`inheritance` null) or
 * a source it inherits from, up to the run its fork was taken at.
 */
type Segment = {
  threadId: string;
  /** The highest run ordinal of this thread the conversation shows. */
  end: number;
  /** How the next thread down the chain reads this one; null for the thread itself. */
  inheritance: ForkInheritance | null;
  /** Runs of the whole conversation before this segment's first. */
  offset: number;
};

/** A segment's runs `lo..hi` that fall in the window. */
type Piece = { segment: Segment; lo: number; hi: number };

export type WindowedRows = {
  window: DetailWindow;
  /** The thread's own runs `lo..hi` (empty range when the window holds none of them). */
  own: { lo: number; hi: number };
  ownTurnItems: readonly ProjectionRow<TurnItem>[];
  inheritedTurnItems: TurnItem[];
};

/** The thread's conversation as segments, root source first, the thread itself last. */
async function segmentsOf(query: ProjectionQuery, shell: ThreadShell): Promise<Segment[]> {
  const own = await query.list("runs", { threadId: shell.id, descending: true, limit: 1 });
  const chain: Segment[] = [
    { threadId: shell.id, end: own[0]?.runOrdinal ?? 0, inheritance: null, offset: 0 },
  ];
  const seen = new Set<string>([shell.id]);
  let current = shell.inheritance;
  for (let depth = 0; current !== null && depth < MAX_FORK_DEPTH; depth += 1) {
    const sourceId: string = current.sourceThreadId;
    if (seen.has(sourceId)) break;
    seen.add(sourceId);
    const source = await query.get("threads", sourceId);
    if (source === undefined) break;
    chain.push({
      threadId: sourceId,
      end: current.sourceRunOrdinal,
      inheritance: current,
      offset: 0,
    });
    current = (source.data as ThreadShell).inheritance;
  }
  chain.reverse();
  let offset = 0;
  for (const segment of chain) {
    segment.offset = offset;
    offset += segment.end;
  }
  return chain;
}

function encodeCursor(segments: readonly Segment[], position: number): string {
  const segment =
    segments.find((s) => position > s.offset && position <= s.offset + s.end) ?? segments.at(-1);
  if (segment === undefined) return `:${position}`;
  return `${segment.threadId}:${position - segment.offset}`;
}

function decodeCursor(segments: readonly Segment[], cursor: string, name: string): number {
  const match = /^(.+):(\d{1,9})$/.exec(cursor);
  const segment = match ? segments.find((s) => s.threadId === match[1]) : undefined;
  const ordinal = match ? Number(match[2]) : Number.NaN;
  if (segment === undefined || ordinal < 1 || ordinal > segment.end + 1) {
    throw new ValidationError(`window.${name}: not a cursor of this thread's conversation`, [
      { path: `window.${name}`, message: "not a cursor of this thread's conversation" },
    ]);
  }
  return segment.offset + ordinal;
}

/** Global run positions `[from, to]` (1-based, inclusive) of the requested window. */
function windowRange(
  segments: readonly Segment[],
  input: DetailWindowInput,
): { from: number; to: number } {
  const total = segments.reduce((sum, s) => sum + s.end, 0);
  const size = Math.min(Math.max(input.limit ?? DEFAULT_WINDOW_RUNS, 1), MAX_WINDOW_RUNS);
  const own = segments.at(-1) as Segment;
  const clamp = (from: number, to: number) => {
    const end = Math.min(to, total);
    return { from: Math.max(1, Math.min(from, end - size + 1)), to: end };
  };
  if (input.before !== undefined) {
    const to = decodeCursor(segments, input.before, "before") - 1;
    return { from: Math.max(1, to - size + 1), to };
  }
  if (input.after !== undefined) {
    const from = decodeCursor(segments, input.after, "after") + 1;
    return { from, to: Math.min(total, from + size - 1) };
  }
  if (input.aroundRun !== undefined) {
    const centre = own.offset + Math.min(Math.max(input.aroundRun, 1), Math.max(own.end, 1));
    const from = Math.max(1, centre - Math.floor((size - 1) / 2));
    return clamp(from, from + size - 1);
  }
  return clamp(total - size + 1, total);
}

/** The sort key of the first item of the first run in `from..to` that has items. */
async function firstItemKey(
  query: ProjectionQuery,
  threadId: string,
  from: number,
  to: number,
): Promise<number | undefined> {
  // Runs start with their user message, so the first lookup almost always answers.
  for (let ordinal = from; ordinal <= to; ordinal += 1) {
    const rows = await query.list("turn_items", { threadId, runOrdinal: ordinal, limit: 1 });
    if (rows[0] !== undefined) return rows[0].sortKey;
  }
  return undefined;
}

/**
 * A piece's turn items: its runs' items plus the items without a run (fork markers) that sit
 * between the end of the previous run and the start of the next window's first run, so each such
 * item belongs to exactly one window.
 */
async function pieceItems(
  query: ProjectionQuery,
  piece: Piece,
): Promise<readonly ProjectionRow<TurnItem>[]> {
  const { segment, lo, hi } = piece;
  const cutoff = segment.inheritance?.cutoffSortKey;
  const minSortKey = lo > 1 ? await firstItemKey(query, segment.threadId, lo, hi) : undefined;
  let maxSortKey = cutoff;
  if (hi < segment.end) {
    const next = await firstItemKey(query, segment.threadId, hi + 1, segment.end);
    if (next !== undefined) maxSortKey = Math.min(next - 1, cutoff ?? Number.POSITIVE_INFINITY);
  }
  const rows = await query.list("turn_items", {
    threadId: segment.threadId,
    minRunOrdinal: lo,
    maxRunOrdinal: hi,
    ...(minSortKey === undefined ? {} : { minSortKey }),
    ...(maxSortKey === undefined ? {} : { maxSortKey }),
  });
  const typed = typedRows<TurnItem>(rows);
  const inheritance = segment.inheritance;
  return inheritance ? typed.filter((row) => isInheritedRow(row, inheritance)) : typed;
}

/** B7: the window's run range and turn items, own and inherited, read by the window alone. */
export async function readWindowRows(
  query: ProjectionQuery,
  shell: ThreadShell,
  input: DetailWindowInput,
): Promise<WindowedRows> {
  const segments = await segmentsOf(query, shell);
  const { from, to } = windowRange(segments, input);
  const total = segments.reduce((sum, s) => sum + s.end, 0);
  const pieces: Piece[] = [];
  for (const segment of segments) {
    if (segment.end === 0) {
      // A thread with no runs (yet) still shows its own items, e.g. its fork marker: with the
      // window holding the run after them, or the last window when none follows.
      const next = segment.offset + 1;
      if ((next >= from && next <= to) || (segment.offset === total && to === total)) {
        pieces.push({ segment, lo: 1, hi: 0 });
      }
      continue;
    }
    const lo = Math.max(from - segment.offset, 1);
    const hi = Math.min(to - segment.offset, segment.end);
    if (lo <= hi) pieces.push({ segment, lo, hi });
  }
  const own = segments.at(-1) as Segment;
  const ownPiece = pieces.find((p) => p.segment === own && p.lo <= p.hi);
  const items = await Promise.all(pieces.map((piece) => pieceItems(query, piece)));
  const inheritedTurnItems: TurnItem[] = [];
  let ownTurnItems: readonly ProjectionRow<TurnItem>[] = [];
  pieces.forEach((piece, index) => {
    const rows = items[index] ?? [];
    if (piece.segment === own) ownTurnItems = rows;
    else for (const row of rows) inheritedTurnItems.push(row.data);
  });
  return {
    window: {
      fromRunOrdinal: ownPiece?.lo ?? 1,
      toRunOrdinal: ownPiece?.hi ?? 0,
      runCount: own.end,
      before: from > 1 ? encodeCursor(segments, from) : null,
      after: to < total ? encodeCursor(segments, to) : null,
    },
    own: { lo: ownPiece?.lo ?? 1, hi: ownPiece?.hi ?? 0 },
    ownTurnItems,
    inheritedTurnItems,
  };
}
