/** A hidden tab gets no animation frames; it still catches up this often. */
const HIDDEN_FALLBACK_MS = 250;

/**
 * Folds many "publish the new state" requests into one call per animation frame: a reply streams
 * faster than the screen refreshes (and each SSE message is its own task), so publishing on every
 * event would render the thread several times per frame for nothing.
 */
export class FramePublisher {
  private frame: number | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly publish: () => void) {}

  request(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame(() => this.flush());
    this.timer = setTimeout(() => this.flush(), HIDDEN_FALLBACK_MS);
  }

  /** Publishes now (e.g. a first snapshot, which should not wait for a frame). */
  flush(): void {
    this.cancel();
    this.publish();
  }

  /** Drops a pending publish (unmount); a later request schedules again. */
  cancel(): void {
    if (this.frame !== null) cancelAnimationFrame(this.frame);
    if (this.timer !== null) clearTimeout(this.timer);
    this.frame = null;
    this.timer = null;
  }
}
