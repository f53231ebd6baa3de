import type { RuntimeEvent } from "@skein/domain/provider";

type Delta = Extract<RuntimeEvent, { type: "item.delta" }>;

/**
 * Merges text deltas that arrive within `windowMs` into one `item.delta` per item, so a fast
 * token stream does not become one domain event per token. Any other event flushes first, which
 * keeps the order of deltas relative to item boundaries.
 */
export class DeltaCoalescer {
  private pending: Delta[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly emit: (event: RuntimeEvent) => void,
    private readonly windowMs = 50,
  ) {}

  delta(event: Delta): void {
    const last = this.pending.at(-1);
    if (last && last.itemRef === event.itemRef && last.field === event.field) {
      last.delta += event.delta;
      if (event.rawEventId !== undefined) last.rawEventId = event.rawEventId;
    } else {
      this.pending.push({ ...event });
    }
    this.timer ??= setTimeout(() => this.flush(), this.windowMs);
  }

  /** Emits a non-delta event after everything buffered before it. */
  event(event: RuntimeEvent): void {
    this.flush();
    this.emit(event);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    this.pending = [];
    for (const delta of pending) this.emit(delta);
  }
}
