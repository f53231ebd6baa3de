import type { AcquireResult, RuntimeLease, RuntimeLeases } from "./runtime-leases.ts";

/** Lease key of an instance's presence row: tells others it is alive even while it runs nothing. */
export const PRESENCE_PREFIX = "instance:";

export type LeaseKeeperOptions = {
  leases: RuntimeLeases;
  /** This instance's id. */
  owner: string;
  /** How long a lease outlives its holder's last renewal. */
  ttlMs: number;
  /** Where other instances reach this one (recorded on its presence row); null if unknown. */
  address?: string | null;
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
  private address: string | null;

  constructor(private readonly options: LeaseKeeperOptions) {
    this.owner = options.owner;
    this.address = options.address ?? null;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  /** Announces this instance and starts renewing. */
  async start(): Promise<void> {
    await this.announce();
    this.resumeRenewal();
  }

  /**
   * Records where this instance can be reached, once it knows (a server on port 0 learns its
   * port only after listening).
   */
  async setAddress(address: string): Promise<void> {
    this.address = address;
    await this.announce();
  }

  /** The live presence row of an instance (its address included), or null if it is not alive. */
  async presenceOf(owner: string): Promise<RuntimeLease | null> {
    const row = await this.options.leases.get(`${PRESENCE_PREFIX}${owner}`);
    return row && !row.expired ? row : null;
  }

  /** Ids of the instances whose presence row is live (this one included once started). */
  async liveInstances(): Promise<Set<string>> {
    const rows = await this.options.leases.list();
    return new Set(
      rows
        .filter((row) => row.threadId.startsWith(PRESENCE_PREFIX) && !row.expired)
        .map((row) => row.threadId.slice(PRESENCE_PREFIX.length)),
    );
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

  /** Renews again after `stopRenewal` (a hung instance coming back); lost leases are reported. */
  resumeRenewal(): void {
    if (this.timer !== null) return;
    const every = this.options.renewEveryMs ?? Math.max(10, Math.floor(this.options.ttlMs / 3));
    this.timer = setInterval(() => void this.renewAll(), every);
    this.timer.unref();
  }

  /** Stops renewing and gives up the presence row and every lease (a clean shutdown). */
  async close(): Promise<void> {
    this.stopRenewal();
    for (const threadId of [...this.held, this.presenceKey]) {
      await this.options.leases.release(threadId, this.owner).catch(() => undefined);
    }
    this.held.clear();
  }

  private async announce(): Promise<void> {
    await this.options.leases.acquire(
      this.presenceKey,
      this.owner,
      this.options.ttlMs,
      this.address,
    );
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
      if (!renewed.has(this.presenceKey)) await this.announce();
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
