import type { StoredEvent } from "@skein/domain";
import type { RawFrameRange, RawFrameView } from "./reads.ts";

/**
 * What every watch procedure yields; the tracked id is the sequence the message brings you to
 * (the snapshot's `snapshotSequence`, or the event's own `sequence`).
 */
export type WatchMessage<TSnapshot> =
  | { type: "snapshot"; data: TSnapshot }
  | { type: "event"; event: StoredEvent };

/** The log itself has no projection: its snapshot is only the position events continue from. */
export type LogPosition = { snapshotSequence: number };

/**
 * One message of `events.watchRaw`: frames in log order, tracked with the last one's id. The
 * first message comes at once, with the frames recorded so far (possibly none).
 */
export type RawStreamMessage = {
  type: "frames";
  /** False when this server keeps no raw log (then no frame ever comes). */
  logged: boolean;
  frames: RawFrameView[];
};

export type RawStreamInput = RawFrameRange & {
  /** The last frame's id the client saw (`tracked` id), or `start`/nothing for all of them. */
  lastEventId?: string | null | undefined;
};
