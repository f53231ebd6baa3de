/**
 * Folds "something changed" signals into few runs: the first signal runs `task` after `delayMs`;
 * signals during that wait join it, signals during the run cause exactly one more run after it.
 * Runs never overlap, so their answers land in order; a streaming reply (many events a second)
 * becomes a steady few reads a second. Retrying a failed read is the query's job, not this one's.
 */
export class Burst {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private again = false;
  private disposed = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly delayMs: number,
  ) {}

  request(): void {
    if (this.disposed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer !== null) return;
    this.timer = setTimeout(() => void this.run(), this.delayMs);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private async run(): Promise<void> {
    this.timer = null;
    this.running = true;
    try {
      do {
        this.again = false;
        await this.task().catch(() => undefined);
      } while (this.again && !this.disposed);
    } finally {
      this.running = false;
    }
  }
}
