import type { RuntimeEvent } from "@skein/domain/provider";

type DeltaEvent = Extract<RuntimeEvent, { type: "item.delta" }>;

/**
 * Merges consecutive deltas of the same item and field for up to `windowMs`, so a token stream
 * becomes a few events per frame instead of one per token. Anything else emitted goes through
 * `emit`, which flushes first, so ordering between deltas and other events is kept.
 */
export class DeltaCoalescer {
  private pending: DeltaEvent | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: (event: RuntimeEvent) => void,
    private readonly windowMs: number,
  ) {}

  delta(event: DeltaEvent): void {
    const pending = this.pending;
    if (pending && pending.itemRef === event.itemRef && pending.field === event.field) {
      // The merged event points at the first raw frame it contains.
      this.pending = { ...pending, delta: pending.delta + event.delta };
      return;
    }
    this.flush();
    if (this.windowMs <= 0) {
      this.sink(event);
      return;
    }
    this.pending = event;
    this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

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
