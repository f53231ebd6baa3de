import path from "node:path";
import { AttachmentStore } from "./attachments/attachment-store.ts";
import {
  createRotatingLog,
  DEFAULT_SQLITE_FILENAME,
  type EventStore,
  openEventStore,
} from "@skein/db";
import type { ProviderKind } from "@skein/domain";
import type { ProviderAdapter } from "@skein/domain/provider";
import packageJson from "../package.json" with { type: "json" };
import type { ServerConfig } from "./env.ts";
import { createHttpRuntimeRemote } from "./http/runtime-remote.ts";
import type { Logger } from "./logger.ts";
import { createSkeinMetrics } from "./metrics/skein-metrics.ts";
import { startTracing, type Tracing } from "./tracing/start-tracing.ts";
import { createOrchestrator, DEFAULT_RUNTIME_LIMITS } from "./orchestrator/index.ts";
import { Notifier } from "./notify/notifier.ts";
import { type SkeinServer, startServer } from "./server.ts";

/** Raw provider frames (E18): diagnostics in bounded files, at most 8 × 16 MiB. */
const RAW_LOG = { maxFileBytes: 16 * 1024 * 1024, maxFiles: 8 };

/** SQLite in the data dir, or the PostgreSQL database several instances share. */
function openStore(config: ServerConfig): Promise<EventStore> {
  const { database } = config;
  if (database.kind === "postgres") return openEventStore({ url: database.url });
  return openEventStore({
    dataDir: database.dataDir,
    ...(database.filename ? { filename: database.filename } : {}),
  });
}

/** For the log: where the events live, without a password a URL may carry. */
function describeDatabase(config: ServerConfig): string {
  const { database } = config;
  if (database.kind === "sqlite") {
    return path.resolve(database.dataDir, database.filename ?? DEFAULT_SQLITE_FILENAME);
  }
  const url = new URL(database.url);
  url.password = "";
  return url.toString();
}

/**
 * Store → orchestrator → recovery → HTTP server, in that order: the log is migrated before
 * anything reads it, and runs a previous process left in flight end explicitly (R2) before the
 * first client can look at them. On failure everything opened so far is closed again.
 */
export async function startSkein(
  config: ServerConfig,
  log: Logger,
  adapters: Partial<Record<ProviderKind, ProviderAdapter>>,
): Promise<SkeinServer> {
  const tracing: Tracing | null = config.otlpTracesUrl
    ? startTracing({
        endpoint: config.otlpTracesUrl,
        instanceId: config.instanceId,
        version: packageJson.version,
      })
    : null;
  const store = await openStore(config);
  log.info(
    { database: describeDatabase(config), head: await store.headSequence() },
    "event store open",
  );
  const metrics = createSkeinMetrics({ store, instanceId: config.instanceId });
  const timed = Object.fromEntries(
    Object.entries(adapters).flatMap(([kind, adapter]) =>
      adapter ? [[kind, metrics.instrument(adapter)]] : [],
    ),
  ) as typeof adapters;
  const rawLog = createRotatingLog({ dir: path.join(config.dataDir, "raw"), ...RAW_LOG });
  let orchestrator: Awaited<ReturnType<typeof createOrchestrator>> | null = null;
  let notifier: Notifier | null = null;
  try {
    orchestrator = await createOrchestrator({
      store,
      adapters: timed,
      dataDir: config.dataDir,
      checkpointsDir: config.checkpointsDir,
      log,
      rawLog,
      instanceId: config.instanceId,
      leaseTtlMs: config.leaseTtlMs,
      remote: createHttpRuntimeRemote({
        instanceId: config.instanceId,
        apiToken: config.apiToken,
      }),
      attempts: {
        maxRetries: config.runRetries,
        idleTimeoutMs: config.turnIdleTimeoutMs,
        unreachableMs: config.modelUnreachableMs,
      },
      usageLimits: { defaultWaitMs: config.usageLimitWaitMs },
      fanOutConcurrency: config.fanOutConcurrency,
      worktreeGraceMs: config.worktreeGraceMs,
      runtimeLimits: {
        ...DEFAULT_RUNTIME_LIMITS,
        maxLoadedThreads: config.runtimeMaxThreads,
        maxRuntimes: config.runtimeMaxLive,
      },
      github: { env: config.github.env, publicUrl: config.github.publicUrl },
    });
    await orchestrator.recover();
    const running = orchestrator;
    metrics.observeRuntimes(() => running.runtimeStats());
    notifier = new Notifier({ store, dataDir: config.dataDir, log, webhook: config.notifyWebhook });
    await notifier.start();
    const server = await startServer({
      notifications: notifier,
      orchestrator,
      store,
      host: config.host,
      port: config.apiPort,
      webOrigins: config.webOrigins,
      apiToken: config.apiToken,
      // No workspace may be or lie inside the data dir (B4), nor the checkpoints dir when it
      // lies elsewhere; a database file elsewhere may share its folder with anything.
      dataDirs: [config.dataDir, config.checkpointsDir],
      attachments: AttachmentStore.inDataDir(config.dataDir),
      log,
      metrics,
      rawLog,
      ...(config.github.webhookSecret
        ? {
            githubWebhook: {
              secret: config.github.webhookSecret,
              nudge: (repository: string, numbers: readonly number[] | null) =>
                orchestrator!.pullRequests.syncRepository(repository, numbers),
            },
          }
        : {}),
    });
    // Other instances forward runtime commands for threads this one runs to this address.
    await orchestrator.advertise(config.advertiseUrl ?? server.url);
    let closing: Promise<void> | null = null;
    return {
      url: server.url,
      port: server.port,
      close: () => {
        closing ??= server.close().finally(async () => {
          await notifier?.close();
          rawLog.close();
          await tracing?.shutdown();
        });
        return closing;
      },
    };
  } catch (error) {
    await notifier?.close().catch(() => undefined);
    await orchestrator?.shutdown().catch(() => undefined);
    metrics.close();
    await store.close();
    rawLog.close();
    await tracing?.shutdown();
    throw error;
  }
}
