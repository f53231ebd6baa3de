/** One dispatched server-sent event (HTML "event stream interpretation"). */
export type ParsedEvent = { type: string; data: string; lastEventId: string };

/**
 * Incremental `text/event-stream` parser: feed decoded text chunks, get complete events. Follows
 * the HTML spec: `data` lines join with "\n", `id` persists across events (and is ignored when it
 * contains NUL), `retry` sets the reconnection delay, comments and unknown fields are skipped, an
 * event without data is not dispatched.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private eventType = "";
  private sawData = false;
  private started = false;
  private idBuffer: string;
  /** The id of the last complete event block; what a reconnection sends as `Last-Event-ID`. */
  lastEventId: string;
  retryMs: number | null = null;

  constructor(initialLastEventId = "") {
    this.lastEventId = initialLastEventId;
    this.idBuffer = initialLastEventId;
  }

  push(chunk: string): ParsedEvent[] {
    let text = this.buffer + chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const events: ParsedEvent[] = [];
    let start = 0;
    for (;;) {
      // indexOf twice beats a per-character scan by a wide margin on long data lines.
      const lf = text.indexOf("\n", start);
      const cr = text.indexOf("\r", start);
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      if (end === -1) break;
      // A lone "\r" at the end may be the first half of "\r\n": wait for more input.
      if (end === cr && cr === text.length - 1) break;
      const line = text.slice(start, end);
      start = end === cr && text[cr + 1] === "\n" ? end + 2 : end + 1;
      const event = this.line(line);
      if (event !== null) events.push(event);
    }
    this.buffer = text.slice(start);
    return events;
  }

  private line(line: string): ParsedEvent | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        this.eventType = value;
        break;
      case "data":
        this.data.push(value);
        this.sawData = true;
        break;
      case "id":
        if (!value.includes("\0")) this.idBuffer = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break;
    }
    return null;
  }

  private dispatch(): ParsedEvent | null {
    // The id takes effect at the end of its block, whether or not the block carries data.
    this.lastEventId = this.idBuffer;
    const event: ParsedEvent | null = this.sawData
      ? {
          type: this.eventType || "message",
          data: this.data.join("\n"),
          lastEventId: this.lastEventId,
        }
      : null;
    this.data = [];
    this.sawData = false;
    this.eventType = "";
    return event;
  }
}
