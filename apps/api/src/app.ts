import path from "node:path";
import {
  createRotatingLog,
  DEFAULT_SQLITE_FILENAME,
  type EventStore,
  openEventStore,
} from "@skein/db";
import type { ProviderKind } from "@skein/domain";
import type { ProviderAdapter } from "@skein/domain/provider";
import type { ServerConfig } from "./env.ts";
import type { Logger } from "./logger.ts";
import { createOrchestrator } from "./orchestrator/index.ts";
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
  const store = await openStore(config);
  log.info(
    { database: describeDatabase(config), head: await store.headSequence() },
    "event store open",
  );
  const rawLog = createRotatingLog({ dir: path.join(config.dataDir, "raw"), ...RAW_LOG });
  let orchestrator: Awaited<ReturnType<typeof createOrchestrator>> | null = null;
  try {
    orchestrator = await createOrchestrator({
      store,
      adapters,
      dataDir: config.dataDir,
      log,
      rawLog,
      instanceId: config.instanceId,
      leaseTtlMs: config.leaseTtlMs,
      apiToken: config.apiToken,
    });
    await orchestrator.recover();
    const server = await startServer({
      orchestrator,
      store,
      host: config.host,
      port: config.apiPort,
      webOrigins: config.webOrigins,
      apiToken: config.apiToken,
      log,
    });
    // Other instances forward runtime commands for threads this one runs to this address.
    await orchestrator.advertise(config.advertiseUrl ?? server.url);
    let closing: Promise<void> | null = null;
    return {
      url: server.url,
      port: server.port,
      close: () => {
        closing ??= server.close().finally(() => rawLog.close());
        return closing;
      },
    };
  } catch (error) {
    await orchestrator?.shutdown().catch(() => undefined);
    await store.close();
    rawLog.close();
    throw error;
  }
}
