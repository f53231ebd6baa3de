import type { RuntimeEvent } from "@skein/domain/provider";

/**
 * Normalized events in the form fixtures keep and replays are compared in. Two things a live
 * session decides by the clock or its process are taken out: how streamed deltas were merged in
 * time windows (consecutive deltas of one item and field are joined, keeping the first frame's
 * id), and the process id in a Codex request ref (`<pid>:<rpc id>` becomes `*:<rpc id>`).
 */
export function normalizeEvents(provider: string, events: readonly RuntimeEvent[]): RuntimeEvent[] {
  const out: RuntimeEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (
      event.type === "item.delta" &&
      last?.type === "item.delta" &&
      last.itemRef === event.itemRef &&
      last.field === event.field
    ) {
      const rawEventId = last.rawEventId ?? event.rawEventId;
      out[out.length - 1] = {
        ...last,
        delta: last.delta + event.delta,
        ...(rawEventId === undefined ? {} : { rawEventId }),
      };
      continue;
    }
    out.push(provider === "codex" ? withoutPid(event) : event);
  }
  // Through JSON, as fixtures store them: `undefined` fields vanish on both sides alike.
  return JSON.parse(JSON.stringify(out)) as RuntimeEvent[];
}

function withoutPid(event: RuntimeEvent): RuntimeEvent {
  if (event.type !== "request.opened" && event.type !== "request.closed") return event;
  return { ...event, requestRef: event.requestRef.replace(/^[^:]*:/, "*:") };
}
