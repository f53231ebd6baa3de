import { applyDelta } from "./detail-delta.ts";
import { shareDetail } from "./share-unchanged.ts";
import type { StoredEvent, ThreadDetail } from "./types.ts";

/**
 * The open thread's detail between re-reads (S2 on the client). A streamed delta is applied to
 * the item it extends; any other event (a new run or item, a settled item, settings…) asks for a
 * re-read of the window. Every event is applied at most once: one the shown base already covers
 * (`sequence <= baseSequence`) is skipped, and a re-read replays only the events newer than it.
 */
export type LiveDetail = {
  /** What the page shows: the latest base with the deltas received since applied. */
  shown: ThreadDetail;
  /** The sequence the base (snapshot or re-read) reflects. */
  baseSequence: number;
  /** The thread stream's version of the last event received; `null` right after a snapshot. */
  version: number | null;
  /**
   * While a re-read is on its way, the events received meanwhile: its answer may predate some of
   * them, and they are applied again on top of it. `null` while no re-read is on its way.
   */
  inFlight: StoredEvent[] | null;
  /** After a gap, nothing is applied until a re-read reflecting at least this sequence lands. */
  blockedUntil: number | null;
};

/** A new state, and whether the window has to be re-read for it to be complete. */
export type LiveStep = { state: LiveDetail; reread: boolean };

/** A watch snapshot: it always wins (the server's "start over"), whatever was shown. */
export function fromSnapshot(prev: LiveDetail | null, snapshot: ThreadDetail): LiveDetail {
  return {
    shown: shareDetail(prev?.shown ?? null, snapshot),
    baseSequence: snapshot.snapshotSequence,
    version: null,
    // A re-read already on its way still lands; what arrives from now on may be newer than it.
    inFlight: prev?.inFlight == null ? null : [],
    blockedUntil: null,
  };
}

/** Events from the watch, in order and each once (the cursor dropped duplicates). */
export function receive(state: LiveDetail, events: readonly StoredEvent[]): LiveStep {
  let { shown, version, blockedUntil } = state;
  let reread = false;
  const inFlight = state.inFlight === null ? null : [...state.inFlight];
  for (const event of events) {
    // A thread stream's versions have no holes: a missing or reordered event means the stream
    // cannot be trusted until a re-read covers it.
    if (version !== null && event.streamVersion !== version + 1) {
      blockedUntil = Math.max(blockedUntil ?? 0, event.sequence);
      reread = true;
    }
    version = event.streamVersion;
    if (event.sequence <= state.baseSequence) continue;
    inFlight?.push(event);
    if (blockedUntil !== null) continue;
    const next = applyDelta(shown, event);
    if (next === null) reread = true;
    else shown = next;
  }
  return { state: { ...state, shown, version, inFlight, blockedUntil }, reread };
}

/** A re-read starts: it reflects every event received so far, so only later ones are kept. */
export function readStarted(state: LiveDetail): LiveDetail {
  return { ...state, inFlight: [] };
}

/** A re-read failed; the next one starts afresh. */
export function readFailed(state: LiveDetail): LiveDetail {
  return { ...state, inFlight: null };
}

/**
 * A re-read's answer. One older than the base is dropped (a snapshot came meanwhile), and so is
 * one as old unless it reads another window: the live window after a snapshot of the first
 * screen's runs (issue 29). Otherwise it becomes the base, and the events received during the
 * read that it does not reflect are applied on top, in order.
 */
export function readLanded(state: LiveDetail, read: ThreadDetail): LiveStep {
  const received = state.inFlight ?? [];
  const settled = { ...state, inFlight: null };
  const widens =
    read.snapshotSequence === state.baseSequence &&
    read.window.before !== state.shown.window.before;
  if (read.snapshotSequence <= state.baseSequence && !widens)
    return { state: settled, reread: false };
  const blockedUntil =
    state.blockedUntil !== null && read.snapshotSequence < state.blockedUntil
      ? state.blockedUntil
      : null;
  let shown = read;
  let reread = false;
  if (blockedUntil === null) {
    for (const event of received) {
      if (event.sequence <= read.snapshotSequence) continue;
      const next = applyDelta(shown, event);
      if (next === null) reread = true;
      else shown = next;
    }
  }
  return {
    state: {
      ...settled,
      shown: shareDetail(state.shown, shown),
      baseSequence: read.snapshotSequence,
      blockedUntil,
    },
    // Still blocked: the read that covers the gap was asked for when it was found.
    reread,
  };
}
