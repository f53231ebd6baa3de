import pg from "pg";
import { quoteIdent } from "./connection.ts";

export type LogListenerOptions = {
  config: pg.ClientConfig;
  channel: string;
  /** A notification's sequence, or null after (re)connecting: anything may have been missed. */
  onSignal: (lastSequence: number | null) => void;
  /** Delay before reconnecting a lost listener connection. */
  retryMs?: number;
};

/**
 * Holds one dedicated connection in LISTEN on the store's channel. Notifications are only a
 * wake-up: when the connection drops, notifications sent meanwhile are lost, so after every
 * reconnect it signals "read the log" and the feed catches up from its cursor.
 */
export class LogListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly options: LogListenerOptions) {}

  /** Connects and listens; rejects if the first connection fails (the store then fails to open). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry !== null) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.options.config);
    client.on("notification", (message) => {
      const sequence = Number(message.payload);
      this.options.onSignal(Number.isSafeInteger(sequence) ? sequence : null);
    });
    // 'error' and 'end' both mean the LISTEN is gone (a server restart, a terminated backend).
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(this.options.channel)}`);
    } catch (error) {
      client.removeAllListeners("end");
      await client.end().catch(() => {});
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client || this.stopped) return;
    this.client = null;
    client.end().catch(() => {});
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry !== null) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect().then(
        () => {
          if (!this.stopped) this.options.onSignal(null);
        },
        () => this.scheduleReconnect(),
      );
    }, this.options.retryMs ?? 500);
    // A lost listener must not keep the process alive on its own.
    this.retry.unref();
  }
}
