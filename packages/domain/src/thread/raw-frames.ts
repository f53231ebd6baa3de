import type { RawFrames } from "../entities/common.ts";

/**
 * B8: how items and nodes keep the raw provider frames they came from. A command carries the
 * frame it was made from (`rawEventId`); the entity keeps the first and the latest, so its frames
 * are the provider session's frames between the two (E18 log order).
 */

/** `{ rawFrames }` for an entity born from this frame, or nothing. */
export function rawFramesFrom(rawEventId: string | undefined): { rawFrames?: RawFrames } {
  return rawEventId === undefined ? {} : { rawFrames: { first: rawEventId, last: rawEventId } };
}

/** `{ rawEventId }` for an event's data, or nothing (events without a frame stay as they were). */
export function rawRef(rawEventId: string | undefined): { rawEventId?: string } {
  return rawEventId === undefined ? {} : { rawEventId };
}

/** The entity with its range extended to a later frame (unchanged without one). */
export function withLaterFrame<T extends { rawFrames?: RawFrames }>(
  entity: T,
  rawEventId: string | undefined,
): T {
  if (rawEventId === undefined) return entity;
  const first = entity.rawFrames?.first ?? rawEventId;
  return { ...entity, rawFrames: { first, last: rawEventId } };
}
