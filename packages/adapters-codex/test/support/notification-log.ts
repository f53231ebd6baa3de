import type {
  CodexAppServerClient,
  NotificationEnvelope,
} from "../../src/rpc/app-server-client.ts";

/**
 * Every notification from every client a test started, in arrival order, with awaitable
 * predicates so tests wait on events instead of sleeping.
 */
export class NotificationLog {
  readonly all: NotificationEnvelope[] = [];
  private readonly waiters = new Set<() => void>();

  attach(client: CodexAppServerClient): void {
    client.onNotification((n) => {
      this.all.push(n);
      for (const wake of this.waiters) wake();
    });
  }

  get size(): number {
    return this.all.length;
  }

  since(from: number): NotificationEnvelope[] {
    return this.all.slice(from);
  }

  /** Resolves with the first notification at index ≥ `from` matching the predicate. */
  waitFor<T extends NotificationEnvelope>(
    predicate: (n: NotificationEnvelope) => n is T,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<T>;
  waitFor(
    predicate: (n: NotificationEnvelope) => boolean,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<NotificationEnvelope>;
  waitFor(
    predicate: (n: NotificationEnvelope) => boolean,
    { from = 0, timeoutMs = 15_000 }: { from?: number; timeoutMs?: number } = {},
  ): Promise<NotificationEnvelope> {
    return new Promise((resolve, reject) => {
      let scanned = from;
      const check = () => {
        for (; scanned < this.all.length; scanned++) {
          const n = this.all[scanned];
          if (n && predicate(n)) {
            cleanup();
            resolve(n);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        const seen = this.since(from).map((n) => n.method);
        reject(new Error(`no matching notification in ${timeoutMs} ms; saw ${seen.join(", ")}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }
}
