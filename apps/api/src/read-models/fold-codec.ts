import type { FoldCheckpoint } from "@skein/db";
import {
  aggregateKindOfStream,
  type RebuiltRow,
  type RowKey,
  restoreCompactState,
  restoreState,
  STATE_SNAPSHOT_VERSION,
  STREAM_FOLD_VERSION,
  serializeState,
} from "@skein/domain";
import type { Checkpoint } from "./past-folds.ts";
import type { ThreadOrigin } from "./thread-streams.ts";

/**
 * What a stored checkpoint was written by: this codec, the state snapshot encoding and the
 * domain's fold (evolve + projectEvent). The store answers only checkpoints of exactly this
 * format, so one written by older or newer code is never read, only replaced.
 */
export const FOLD_FORMAT = `b8-fold.1/state.${STATE_SNAPSHOT_VERSION}/fold.${STREAM_FOLD_VERSION}`;

type Body = {
  /** A thread's compact state (its recent runs) or another stream's whole state. */
  compact: boolean;
  state: string;
  /** The exact keys a compact state left out. */
  leftOut?: string[];
  rows: RebuiltRow[];
  sessions: string[];
  origin: ThreadOrigin;
};

/**
 * A checkpoint as stored. A thread's keeps only its compact state: it is a fraction of the full
 * one to write and to read back, and a read that needs the history it left out folds from a
 * whole checkpoint below it instead.
 */
export function encodeCheckpoint(checkpoint: Checkpoint): string {
  const { fold, compact, sessions, origin } = checkpoint;
  const body: Body = {
    compact: compact !== undefined,
    state: compact ? compact.text : serializeState(fold.state),
    ...(compact ? { leftOut: [...compact.leftOut] } : {}),
    rows: [...fold.rows.values()],
    sessions: [...sessions],
    origin,
  };
  return JSON.stringify(body);
}

/**
 * The checkpoint a stored one holds, or null when it cannot be read (then the caller folds
 * without it). A thread's comes back `partial`: only its compact state is there.
 */
export function decodeCheckpoint(stored: FoldCheckpoint): Checkpoint | null {
  let body: Body;
  try {
    body = JSON.parse(stored.body) as Body;
  } catch {
    return null;
  }
  if (!Array.isArray(body.rows) || typeof body.state !== "string") return null;
  const leftOut = new Set(body.leftOut ?? []);
  const state = body.compact
    ? restoreCompactState(body.state, leftOut)
    : restoreState(body.state, aggregateKindOfStream(stored.streamId));
  if (!state) return null;
  const rows = new Map<RowKey, RebuiltRow>();
  for (const row of body.rows) rows.set(`${row.table}/${row.id}`, row);
  return {
    fold: {
      streamId: stored.streamId,
      state,
      rows,
      sequence: stored.sequence,
      version: stored.version,
    },
    sessions: new Set(body.sessions),
    origin: body.origin,
    ...(body.compact ? { compact: { text: body.state, leftOut }, partial: true } : {}),
  };
}
