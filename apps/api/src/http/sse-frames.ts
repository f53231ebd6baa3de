import type { StoredEvent } from "@skein/db";

/**
 * tRPC-compatible SSE frames (the exact bytes `sseStreamProducer` writes, so `httpSubscriptionLink`
 * reads them unchanged), built so that fan-out costs almost nothing per subscriber: every
 * subscriber of a stream is handed the same event objects by the store's bus, so each event's
 * frame is serialized once and every subscriber writes the same Buffer.
 */

/** tRPC's field order: `event`, `data`, `id`, then a blank line (its transform adds `\n\n`). */
function frame(fields: { event?: string; data: string; id?: string }): string {
  let text = fields.event === undefined ? "" : `event: ${fields.event}\n`;
  text += `data: ${fields.data}\n`;
  if (fields.id !== undefined) text += `id: ${fields.id}\n`;
  return `${text}\n\n`;
}

export const pingFrame = Buffer.from(frame({ event: "ping", data: "" }));
export const returnFrame = Buffer.from(frame({ event: "return", data: "" }));

export function connectedFrame(client: object): Buffer {
  return Buffer.from(frame({ event: "connected", data: JSON.stringify(client) }));
}

export function errorFrame(shape: unknown): Buffer {
  return Buffer.from(frame({ event: "serialized-error", data: JSON.stringify(shape) }));
}

/** Every subscriber of a stream is handed the same event objects, so each frame is built once. */
const eventFrames = new WeakMap<StoredEvent, Buffer>();

/** `{ type: "event", event }` tracked with the event's sequence, as bytes shared by everyone. */
export function eventFrame(id: string, event: StoredEvent): Buffer {
  let bytes = eventFrames.get(event);
  if (bytes === undefined) {
    const data = `{"type":"event","event":${JSON.stringify(event)}}`;
    bytes = Buffer.from(frame({ data, id }));
    // The cache is keyed by the event alone; an id other than its sequence is not cacheable.
    if (id !== String(event.sequence)) return bytes;
    eventFrames.set(event, bytes);
  }
  return bytes;
}

/** Any other tracked message (snapshots): serialized as tRPC would. */
export function dataFrame(id: string, data: unknown): Buffer {
  return Buffer.from(frame({ data: JSON.stringify(data), id }));
}

/** True for exactly `{ type: "event", event }`, whose JSON `eventFrame` reproduces. */
export function isEventMessage(data: unknown): data is { type: "event"; event: StoredEvent } {
  if (typeof data !== "object" || data === null) return false;
  const keys = Object.keys(data);
  return (
    keys.length === 2 &&
    keys[0] === "type" &&
    keys[1] === "event" &&
    (data as { type: unknown }).type === "event" &&
    typeof (data as { event: unknown }).event === "object" &&
    (data as { event: unknown }).event !== null
  );
}
