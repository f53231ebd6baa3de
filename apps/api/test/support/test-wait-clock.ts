import type { WaitClock } from "../../src/orchestrator/limits/wait-clock.ts";

/**
 * A clock only the test moves: waits fire when `advanceTo` reaches them (a wait already due
 * fires on the next tick), so a test never sleeps for a reset and never reads the wall clock.
 */
export class TestWaitClock implements WaitClock {
  private time: number;
  private readonly waits: { when: number; fire: () => void; live: boolean }[] = [];

  constructor(start = new Date(0)) {
    this.time = start.getTime();
  }

  now(): Date {
    return new Date(this.time);
  }

  at(when: Date, fire: () => void): () => void {
    const wait = { when: when.getTime(), fire, live: true };
    this.waits.push(wait);
    if (wait.when <= this.time) queueMicrotask(() => this.fireDue());
    return () => {
      wait.live = false;
    };
  }

  /** Moves time to `to` (never back) and fires every wait due by then, earliest first. */
  advanceTo(to: Date | string): void {
    this.time = Math.max(this.time, new Date(to).getTime());
    this.fireDue();
  }

  /** Waits armed and not yet fired or cancelled. */
  pending(): number {
    return this.waits.filter((w) => w.live).length;
  }

  private fireDue(): void {
    const due = this.waits
      .filter((w) => w.live && w.when <= this.time)
      .sort((a, b) => a.when - b.when);
    for (const wait of due) {
      wait.live = false;
      wait.fire();
    }
  }
}
