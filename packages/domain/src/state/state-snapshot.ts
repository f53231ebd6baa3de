import { type AggregateKind, type AggregateState, initialStateFor } from "../decide.ts";

/**
 * Bump whenever `evolve` starts deriving state an older snapshot does not hold (a new cache, a
 * new entity field computed from old events): snapshots of another version are ignored and the
 * stream is replayed instead, so a stale snapshot can never stand in for the log.
 */
export const STATE_SNAPSHOT_VERSION = 1;

type Encoded = { v: number; kind: AggregateKind; keys: string; state: unknown };

/** The fields of a kind's state, so a snapshot of an older shape is recognised and ignored. */
function shapeOf(kind: AggregateKind): string {
  return Object.keys(initialStateFor(kind)).sort().join(",");
}

// Maps and Sets are the only non-JSON values in aggregate states; entities are plain JSON.
function replacer(this: unknown, _key: string, value: unknown): unknown {
  if (value instanceof Map) return { $map: [...value] };
  if (value instanceof Set) return { $set: [...value] };
  return value;
}

/**
 * Maps and Sets sit at the top of a state, and Sets also as Map values (open nodes per run), so
 * restoring walks two levels instead of reviving every value of every entity.
 */
function revive(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.$set)) return new Set(record.$set as unknown[]);
  if (Array.isArray(record.$map)) {
    const entries = record.$map as [unknown, unknown][];
    if (depth > 0) for (const entry of entries) entry[1] = revive(entry[1], depth - 1);
    return new Map(entries);
  }
  return value;
}

/**
 * Issue 20: an aggregate's state as text, to be stored with the stream version it reflects. The
 * per-event `changed` set is left out (it only describes the last evolve).
 */
export function serializeState(state: AggregateState): string {
  const { changed: _changed, ...rest } = state;
  const encoded: Encoded = {
    v: STATE_SNAPSHOT_VERSION,
    kind: state.kind,
    keys: shapeOf(state.kind),
    state: rest,
  };
  return JSON.stringify(encoded, replacer);
}

/** The state a `serializeState` text holds, or null when it is of another version or shape. */
export function restoreState(text: string, kind: AggregateKind): AggregateState | null {
  let encoded: Encoded;
  try {
    encoded = JSON.parse(text) as Encoded;
  } catch {
    return null;
  }
  if (encoded.v !== STATE_SNAPSHOT_VERSION || encoded.kind !== kind) return null;
  if (encoded.keys !== shapeOf(kind)) return null;
  const state: Record<string, unknown> = { ...(encoded.state as object), changed: new Map() };
  for (const key of Object.keys(state)) state[key] = revive(state[key], 1);
  return state as AggregateState;
}
