import type { EventStore, StoredEvent } from "@skein/db";
import { RunStatus } from "@skein/domain";
import type { ProviderAdapter } from "@skein/domain/provider";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { instrumentAdapter, type ProviderTimers } from "./instrument-adapter.ts";
import { countAppends } from "./append-counter.ts";
import type { RuntimeStats } from "../orchestrator/index.ts";

export type SkeinMetricsOptions = {
  store: EventStore;
  /** This instance's lease owner id, to tell its leases from other instances'. */
  instanceId: string;
};

export type SkeinMetrics = {
  /** Prometheus text exposition of every metric. */
  render(): Promise<{ contentType: string; body: string }>;
  /** The adapter with its provider calls timed. */
  instrument(adapter: ProviderAdapter): ProviderAdapter;
  /** B21: reads the live provider runtimes when scraped (known once the orchestrator exists). */
  observeRuntimes(read: () => RuntimeStats): void;
  /** Stops following the log. */
  close(): void;
};

const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * B11: what an operator watches, measured off the hot path. Appends are counted by a store
 * subscription (never inside the commit); run, lease and subscriber figures are read only when
 * scraped; provider latency is timed around the adapter calls the orchestrator already makes.
 */
export function createSkeinMetrics(options: SkeinMetricsOptions): SkeinMetrics {
  const { store, instanceId } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "skein_" });

  const appended = new Counter({
    name: "skein_events_appended_total",
    help: "Events appended to the log since this process started, by event type.",
    labelNames: ["type"] as const,
    registers: [registry],
  });
  new Gauge({
    name: "skein_event_log_head_sequence",
    help: "The log's highest committed sequence.",
    registers: [registry],
    async collect() {
      this.set(await store.headSequence());
    },
  });
  new Gauge({
    name: "skein_runs",
    help: "Runs by status, as projected.",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      const { data } = await store.snapshot(async (query) =>
        Promise.all(RunStatus.options.map((status) => query.count("runs", { status }))),
      );
      for (const [i, status] of RunStatus.options.entries()) this.set({ status }, data[i] ?? 0);
    },
  });
  const follower = { subscribers: 0 };
  new Gauge({
    name: "skein_subscribers",
    help: "Live event-feed subscribers in this process (watch streams and internal consumers).",
    registers: [registry],
    collect() {
      this.set(Math.max(0, store.busStats().subscribers - follower.subscribers));
    },
  });
  new Gauge({
    name: "skein_subscriber_backlog_max",
    help: "The most events one subscriber has been given and not yet taken (its lag).",
    registers: [registry],
    collect() {
      this.set(store.busStats().maxBacklog);
    },
  });
  new Gauge({
    name: "skein_runtime_leases",
    help: "Provider-runtime leases by holder (this instance or another) and state.",
    labelNames: ["holder", "state"] as const,
    registers: [registry],
    async collect() {
      const now = Date.now();
      const counts = new Map<string, number>();
      for (const lease of await store.runtimeLeases.list()) {
        const holder = lease.owner === instanceId ? "self" : "other";
        const state = lease.expiresAt.getTime() > now ? "live" : "expired";
        counts.set(`${holder}/${state}`, (counts.get(`${holder}/${state}`) ?? 0) + 1);
      }
      for (const holder of ["self", "other"]) {
        for (const state of ["live", "expired"]) {
          this.set({ holder, state }, counts.get(`${holder}/${state}`) ?? 0);
        }
      }
    },
  });
  let runtimes: (() => RuntimeStats) | null = null;
  new Gauge({
    name: "skein_provider_runtimes",
    help: "Provider runtime processes this instance holds open.",
    registers: [registry],
    collect() {
      this.set(runtimes?.().runtimes ?? 0);
    },
  });
  new Gauge({
    name: "skein_provider_loaded_threads",
    help: "Native threads the live provider runtimes hold loaded (SKEIN_RUNTIME_MAX_THREADS per runtime: one at the bound takes no new threads).",
    registers: [registry],
    collect() {
      this.set(runtimes?.().loadedThreads ?? 0);
    },
  });
  const timers: ProviderTimers = {
    request: new Histogram({
      name: "skein_provider_request_seconds",
      help: "Provider runtime calls, by provider, operation and outcome.",
      labelNames: ["provider", "op", "outcome"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
    firstEvent: new Histogram({
      name: "skein_provider_first_event_seconds",
      help: "From asking a provider for a turn to its first runtime event.",
      labelNames: ["provider"] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    }),
  };

  follower.subscribers = 1;
  const stopCounting = countAppends(store, (event: StoredEvent) =>
    appended.inc({ type: event.type }),
  );

  return {
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    instrument: (adapter) => instrumentAdapter(adapter, timers),
    observeRuntimes: (read) => {
      runtimes = read;
    },
    close: () => {
      stopCounting();
      follower.subscribers = 0;
    },
  };
}
