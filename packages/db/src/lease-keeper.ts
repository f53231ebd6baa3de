import type { AcquireResult, RuntimeLease, RuntimeLeases } from "./runtime-leases.ts";

/** Lease key of an instance's presence row: tells others it is alive even while it runs nothing. */
export const PRESENCE_PREFIX = "instance:";

export type LeaseKeeperOptions = {
  leases: RuntimeLeases;
  /** This instance's id. */
  owner: string;
  /** How long a lease outlives its holder's last renewal. */
  ttlMs: number;
  /** Renewal period; default a third of the TTL, so two missed renewals still keep the lease. */
  renewEveryMs?: number;
  /** A held lease could not be renewed (it expired and another instance took it over). */
  onLost?: (threadId: string) => void;
  onError?: (error: unknown) => void;
};

/**
 * One instance's side of runtime ownership: the thread leases it holds (renewed on a timer, with
 * its presence row) and checks of who owns a thread before a command touches its runtime.
 */
export class LeaseKeeper {
  readonly owner: string;
  private readonly held = new Set<string>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.owner = options.owner;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  /** Announces this instance and starts renewing. */
  async start(): Promise<void> {
    await this.options.leases.acquire(this.presenceKey, this.owner, this.options.ttlMs);
    const every = this.options.renewEveryMs ?? Math.max(10, Math.floor(this.options.ttlMs / 3));
    this.timer = setInterval(() => void this.renewAll(), every);
    this.timer.unref();
  }

  holds(threadId: string): boolean {
    return this.held.has(threadId);
  }

  async acquire(threadId: string): Promise<AcquireResult> {
    const result = await this.options.leases.acquire(threadId, this.owner, this.options.ttlMs);
    if (result.acquired) this.held.add(threadId);
    return result;
  }

  async release(threadId: string): Promise<void> {
    this.held.delete(threadId);
    await this.options.leases.release(threadId, this.owner);
  }

  /** The live lease another instance holds on the thread, or null (free, expired or ours). */
  async foreignHolder(threadId: string): Promise<RuntimeLease | null> {
    const lease = await this.options.leases.get(threadId);
    return lease && lease.owner !== this.owner && !lease.expired ? lease : null;
  }

  async list(): Promise<RuntimeLease[]> {
    return this.options.leases.list();
  }

  /**
   * Stops renewing without releasing anything, as a hung or killed instance would: its leases
   * expire and other instances recover its runs. For tests and for shutdown.
   */
  stopRenewal(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  /** Stops renewing and gives up the presence row and every lease (a clean shutdown). */
  async close(): Promise<void> {
    this.stopRenewal();
    for (const threadId of [...this.held, this.presenceKey]) {
      await this.options.leases.release(threadId, this.owner).catch(() => undefined);
    }
    this.held.clear();
  }

  private get presenceKey(): string {
    return `${PRESENCE_PREFIX}${this.owner}`;
  }

  private async renewAll(): Promise<void> {
    const wanted = [...this.held];
    try {
      const renewed = new Set(
        await this.options.leases.renew(
          this.owner,
          [...wanted, this.presenceKey],
          this.options.ttlMs,
        ),
      );
      // The presence row is re-taken if it lapsed (e.g. the database was briefly unreachable).
      if (!renewed.has(this.presenceKey)) {
        await this.options.leases.acquire(this.presenceKey, this.owner, this.options.ttlMs);
      }
      for (const threadId of wanted) {
        if (renewed.has(threadId) || !this.held.has(threadId)) continue;
        this.held.delete(threadId);
        this.options.onLost?.(threadId);
      }
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}
