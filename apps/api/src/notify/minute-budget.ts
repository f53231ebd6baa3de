/**
 * At most `perMinute` sends per target in any sliding minute: a thread of failing runs, or many
 * threads finishing together, cannot flood a phone. Kept per instance (a bound, not a count).
 */
export class MinuteBudget {
  private readonly sent = new Map<string, number[]>();

  constructor(private readonly perMinute: number) {}

  /** Takes one send for `target` at `now` (ms), or false when its minute is used up. */
  take(target: string, now: number): boolean {
    const recent = (this.sent.get(target) ?? []).filter((at) => now - at < 60_000);
    if (recent.length >= this.perMinute) {
      this.sent.set(target, recent);
      return false;
    }
    recent.push(now);
    this.sent.set(target, recent);
    return true;
  }
}
