import type { StoredEvent, WatchMessage } from "./types.ts";

/**
 * The client half of S2. Each watch keeps its own cursor: a snapshot resets it to the snapshot's
 * sequence (whatever came before is replaced), events move it forward, and an event at or below
 * the cursor is a duplicate the UI must not apply twice (a replay overlapping what a reconnect
 * already delivered).
 */
export type WatchCursor = {
  /** Last sequence applied; `null` until the first snapshot. Sent back as `lastEventId`. */
  cursor: number | null;
  snapshots: number;
  events: number;
  duplicates: number;
};

export type CursorStep<TSnapshot> =
  | { kind: "snapshot"; data: TSnapshot; sequence: number }
  | { kind: "events"; events: StoredEvent[] };

export const initialCursor: WatchCursor = { cursor: null, snapshots: 0, events: 0, duplicates: 0 };

export function lastEventIdOf(state: WatchCursor): string | null {
  return state.cursor === null ? null : String(state.cursor);
}

/** Folds one tracked message into the cursor and says what the caller should apply. */
export function advanceCursor<TSnapshot>(
  state: WatchCursor,
  trackedId: string,
  message: WatchMessage<TSnapshot>,
): { state: WatchCursor; step: CursorStep<TSnapshot> } {
  if (message.type === "snapshot") {
    const sequence = Number(trackedId);
    return {
      state: { ...state, cursor: sequence, snapshots: state.snapshots + 1 },
      step: { kind: "snapshot", data: message.data, sequence },
    };
  }
  const { event } = message;
  if (state.cursor !== null && event.sequence <= state.cursor) {
    return {
      state: { ...state, duplicates: state.duplicates + 1 },
      step: { kind: "events", events: [] },
    };
  }
  return {
    state: { ...state, cursor: event.sequence, events: state.events + 1 },
    step: { kind: "events", events: [event] },
  };
}
