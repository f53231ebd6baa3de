import type { RuntimeEvent } from "@skein/domain/provider";

type DeltaEvent = Extract<RuntimeEvent, { type: "item.delta" }>;

/**
 * Merges consecutive deltas of the same item and field for up to `windowMs`, so a token stream
 * becomes a few events per frame instead of one per token. A delta for another item or field, and
 * any other event (through `emit`), flushes what is pending first, so the order of deltas relative
 * to each other and to item boundaries is kept. The window starts at the first pending delta and
 * is not extended by later ones, so text is never held back longer than `windowMs`.
 *
 * A merged delta keeps the `rawEventId` of the first frame it contains (or of the first that has
 * one): the raw log is sequential, so the start of the run is where its frames can be read from
 * (B8); the last frame alone would lose the beginning.
 */
export class DeltaCoalescer {
  private pending: DeltaEvent | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** With `windowMs` 0 (or less) every delta goes out at once, unmerged. */
  constructor(
    private readonly sink: (event: RuntimeEvent) => void,
    private readonly windowMs: number,
  ) {}

  delta(event: DeltaEvent): void {
    const pending = this.pending;
    if (pending && pending.itemRef === event.itemRef && pending.field === event.field) {
      const rawEventId = pending.rawEventId ?? event.rawEventId;
      this.pending = {
        ...pending,
        delta: pending.delta + event.delta,
        ...(rawEventId === undefined ? {} : { rawEventId }),
      };
      return;
    }
    this.flush();
    if (this.windowMs <= 0) {
      this.sink(event);
      return;
    }
    this.pending = { ...event };
    this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  /** Emits a non-delta event after everything buffered before it. */
  emit(event: RuntimeEvent): void {
    this.flush();
    this.sink(event);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pending;
    this.pending = null;
    if (pending) this.sink(pending);
  }
}
