import type { StoredEvent } from "@skein/db";

/**
 * tRPC-compatible SSE frames (the exact bytes `sseStreamProducer` writes, so `httpSubscriptionLink`
 * reads them unchanged), built so that fan-out costs almost nothing per subscriber: every
 * subscriber of a stream is handed the same event objects by the store's bus, so each event is
 * serialized once, and a batch that another subscriber already got is the same Buffer again.
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

const eventJson = new WeakMap<StoredEvent, string>();

function jsonOf(event: StoredEvent): string {
  let json = eventJson.get(event);
  if (json === undefined) {
    json = JSON.stringify(event);
    eventJson.set(event, json);
  }
  return json;
}

type CachedBatch = { events: readonly StoredEvent[]; bytes: Buffer };
/** Keyed by a batch's first event: subscribers that keep up get identical batches. */
const batchFrames = new WeakMap<StoredEvent, CachedBatch>();

function sameEvents(a: readonly StoredEvent[], b: readonly StoredEvent[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** `{ type: "events", events }` tracked with `id`, as bytes shared by every identical batch. */
export function eventsFrame(id: string, events: readonly StoredEvent[]): Buffer {
  const first = events[0];
  const cached = first === undefined ? undefined : batchFrames.get(first);
  if (cached !== undefined && sameEvents(cached.events, events)) return cached.bytes;
  let data = '{"type":"events","events":[';
  for (let i = 0; i < events.length; i += 1) {
    if (i > 0) data += ",";
    data += jsonOf(events[i] as StoredEvent);
  }
  const bytes = Buffer.from(frame({ data: `${data}]}`, id }));
  if (first !== undefined) batchFrames.set(first, { events, bytes });
  return bytes;
}

/** Any other tracked message (snapshots): serialized as tRPC would. */
export function dataFrame(id: string, data: unknown): Buffer {
  return Buffer.from(frame({ data: JSON.stringify(data), id }));
}

/** True for exactly `{ type: "events", events: [...] }`, whose JSON `eventsFrame` reproduces. */
export function isEventsMessage(
  data: unknown,
): data is { type: "events"; events: readonly StoredEvent[] } {
  if (typeof data !== "object" || data === null) return false;
  const keys = Object.keys(data);
  return (
    keys.length === 2 &&
    keys[0] === "type" &&
    keys[1] === "events" &&
    (data as { type: unknown }).type === "events" &&
    Array.isArray((data as { events: unknown }).events)
  );
}
