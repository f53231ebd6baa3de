/**
 * Runtime ownership (issue 9): the instance executing a thread's runs holds a lease on the thread
 * with an expiry, renewed while it holds runs. Other instances leave such a thread's in-flight
 * runs alone until the lease expires; then one of them takes the lease over and recovers them.
 */
export type RuntimeLease = {
  threadId: string;
  /** The holding instance's id. */
  owner: string;
  expiresAt: Date;
  /**
   * Where the holder can be reached (its advertised API URL). Set on presence rows, so another
   * instance can forward a runtime command to a thread's owner; null on thread leases.
   */
  address: string | null;
  /** Judged by the database's clock, so instances with skewed clocks agree. */
  expired: boolean;
};

export type AcquireResult =
  | {
      acquired: true;
      /** The lease this one replaced (ours or an expired one), or null if there was none. */
      previous: RuntimeLease | null;
    }
  | { acquired: false; holder: RuntimeLease };

export interface RuntimeLeases {
  /**
   * Takes the lease when it is free, expired or already `owner`'s (recording `address`, default
   * null); otherwise reports the holder.
   */
  acquire(
    threadId: string,
    owner: string,
    ttlMs: number,
    address?: string | null,
  ): Promise<AcquireResult>;
  /** Extends `owner`'s leases on these threads; returns the threads it still holds. */
  renew(owner: string, threadIds: readonly string[], ttlMs: number): Promise<string[]>;
  /** Gives the lease up (only if `owner` holds it). */
  release(threadId: string, owner: string): Promise<void>;
  get(threadId: string): Promise<RuntimeLease | null>;
  list(): Promise<RuntimeLease[]>;
}

/**
 * The embedded (SQLite) store serves one process, so leases need not outlive it: they live in
 * memory and a restart starts with none, which makes every run left in flight recoverable at
 * once, exactly as before leases existed.
 */
export class MemoryRuntimeLeases implements RuntimeLeases {
  private readonly leases = new Map<
    string,
    { owner: string; expiresAt: number; address: string | null }
  >();

  constructor(private readonly now: () => number = Date.now) {}

  async acquire(
    threadId: string,
    owner: string,
    ttlMs: number,
    address: string | null = null,
  ): Promise<AcquireResult> {
    const current = this.view(threadId);
    if (current && current.owner !== owner && !current.expired) {
      return { acquired: false, holder: current };
    }
    this.leases.set(threadId, { owner, expiresAt: this.now() + ttlMs, address });
    return { acquired: true, previous: current };
  }

  async renew(owner: string, threadIds: readonly string[], ttlMs: number): Promise<string[]> {
    const held: string[] = [];
    for (const threadId of threadIds) {
      const lease = this.leases.get(threadId);
      if (lease?.owner !== owner) continue;
      lease.expiresAt = this.now() + ttlMs;
      held.push(threadId);
    }
    return held;
  }

  async release(threadId: string, owner: string): Promise<void> {
    if (this.leases.get(threadId)?.owner === owner) this.leases.delete(threadId);
  }

  async get(threadId: string): Promise<RuntimeLease | null> {
    return this.view(threadId);
  }

  /** Who holds the lease now, expired or not (null: nobody); what a fenced append checks. */
  ownerOf(threadId: string): string | null {
    return this.leases.get(threadId)?.owner ?? null;
  }

  async list(): Promise<RuntimeLease[]> {
    return [...this.leases.keys()].flatMap((id) => this.view(id) ?? []);
  }

  private view(threadId: string): RuntimeLease | null {
    const lease = this.leases.get(threadId);
    if (!lease) return null;
    return {
      threadId,
      owner: lease.owner,
      expiresAt: new Date(lease.expiresAt),
      address: lease.address,
      expired: lease.expiresAt <= this.now(),
    };
  }
}
