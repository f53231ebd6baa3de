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
import type { Checkpoint } from "./fold-checkpoint.ts";
import type { ThreadOrigin } from "./thread-streams.ts";

/**
 * What a stored checkpoint was written by: this codec, the state snapshot encoding and the
 * domain's fold (evolve + projectEvent). The store answers only checkpoints of exactly this
 * format, so one written by older or newer code is never read, only replaced. The store holds
 * the text deflated (`fold-packing.ts`).
 */
export const FOLD_FORMAT = `b8-fold.3-deflate/state.${STATE_SNAPSHOT_VERSION}/fold.${STREAM_FOLD_VERSION}`;

type Header = {
  /** A thread's compact state (its recent runs) or another stream's whole state. */
  compact: boolean;
  state: string;
  /** The exact keys a compact state left out. */
  leftOut?: string[];
  /** Each row's columns and the length of its data's JSON in the text after the header. */
  rows: RowColumns[];
  sessions: string[];
  origin: ThreadOrigin;
};

type RowColumns = [
  table: RebuiltRow["table"],
  id: string,
  threadId: string | null,
  sortKey: number,
  runOrdinal: number | null,
  status: string | null,
  updatedSequence: number | null,
  dataLength: number,
];

/**
 * A checkpoint as stored: a JSON header line, then every row's data JSON back to back. A
 * thread's keeps only its compact state: a fraction of the full one to write and to read back,
 * and a read that needs the history it left out folds from a whole checkpoint instead. Rows'
 * data is parsed only when a read uses it, so a cold read of a long thread costs what it reads.
 */
export function encodeCheckpoint(checkpoint: Checkpoint): string {
  const { fold, compact, sessions, origin } = checkpoint;
  const rows: RowColumns[] = [];
  const data: string[] = [];
  for (const row of fold.rows.values()) {
    const text = JSON.stringify(row.data) ?? "null";
    data.push(text);
    rows.push([
      row.table,
      row.id,
      row.threadId,
      row.sortKey,
      row.runOrdinal,
      row.status,
      row.updatedSequence ?? null,
      text.length,
    ]);
  }
  const header: Header = {
    compact: compact !== undefined,
    state: compact ? compact.text : serializeState(fold.state),
    ...(compact ? { leftOut: [...compact.leftOut] } : {}),
    rows,
    sessions: [...sessions],
    origin,
  };
  // JSON text has no raw newline, so the first one ends the header.
  return `${JSON.stringify(header)}\n${data.join("")}`;
}

/**
 * A row whose data is parsed from the stored text the first time it is read, then kept. The
 * getter sits on the prototype (one shape for every row, cheap to make by the thousand) and the
 * text is private, so a spread of the row copies its columns only; readers ask for `data`.
 */
class StoredRow {
  readonly table: RebuiltRow["table"];
  readonly id: string;
  readonly threadId: string | null;
  readonly sortKey: number;
  readonly runOrdinal: number | null;
  readonly status: string | null;
  readonly updatedSequence?: number;
  readonly #text: string;
  readonly #from: number;
  readonly #length: number;
  #parsed: { value: unknown } | null = null;

  constructor(columns: RowColumns, text: string, from: number) {
    [this.table, this.id, this.threadId, this.sortKey, this.runOrdinal, this.status] = columns;
    if (columns[6] !== null) this.updatedSequence = columns[6];
    this.#text = text;
    this.#from = from;
    this.#length = columns[7];
  }

  get data(): unknown {
    this.#parsed ??= { value: JSON.parse(this.#text.slice(this.#from, this.#from + this.#length)) };
    return this.#parsed.value;
  }
}

/**
 * The checkpoint a stored one holds, or null when it cannot be read (then the caller folds
 * without it). A thread's comes back `partial`: only its compact state is there.
 */
export function decodeCheckpoint(stored: FoldCheckpoint): Checkpoint | null {
  const { body } = stored;
  const newline = body.indexOf("\n");
  let header: Header;
  try {
    header = JSON.parse(body.slice(0, newline)) as Header;
  } catch {
    return null;
  }
  if (newline < 0 || !Array.isArray(header.rows) || typeof header.state !== "string") return null;
  const leftOut = new Set(header.leftOut ?? []);
  const state = header.compact
    ? restoreCompactState(header.state, leftOut)
    : restoreState(header.state, aggregateKindOfStream(stored.streamId));
  if (!state) return null;
  const rows = new Map<RowKey, RebuiltRow>();
  let from = newline + 1;
  for (const columns of header.rows) {
    rows.set(`${columns[0]}/${columns[1]}`, new StoredRow(columns, body, from));
    from += columns[7];
  }
  if (from !== body.length) return null;
  const { streamId, sequence, version } = stored;
  return {
    fold: { streamId, state, rows, sequence, version },
    sessions: new Set(header.sessions),
    origin: header.origin,
    ...(header.compact ? { compact: { text: header.state, leftOut }, partial: true } : {}),
  };
}
