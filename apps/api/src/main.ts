// `pnpm --filter @skein/api start` (and the root `pnpm start`): the API server on embedded SQLite,
// or on PostgreSQL shared with other instances when SKEIN_DATABASE_URL is a postgresql:// URL.
import path from "node:path";
import { startSkein } from "./app.ts";
import { ConfigError, loadEnv, type ServerConfig } from "./env.ts";
import { createLogger } from "./logger.ts";
import { createServerAdapters } from "./providers/provider-registry.ts";
import { startOrphanWatchdog } from "./runtime/orphan-watchdog.ts";
import { sweepStaleProviderProcesses } from "./runtime/provider-processes.ts";
import type { SkeinServer } from "./server.ts";

/** The longest a SIGINT/SIGTERM shutdown may take (in-flight calls get most of it). */
const SHUTDOWN_DEADLINE_MS = 15_000;

/** Human-readable lines go to stderr; stdout carries only the JSON logs. */
function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function configOrExit(): ServerConfig {
  try {
    return loadEnv();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    say(`skein: refusing to start: ${error.message}`);
    process.exit(78); // EX_CONFIG
  }
}

function startupFailure(error: unknown, config: ServerConfig): string {
  if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
    return `port ${config.apiPort} on ${config.host} is in use (set SKEIN_API_PORT)`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** SIGINT/SIGTERM stop gracefully; a second signal exits at once. */
function stopOnSignals(server: SkeinServer, log: ReturnType<typeof createLogger>): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      say(`skein: ${signal} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, "shutting down");
    // Graceful has a limit: whatever still holds the process after it, the process ends anyway.
    setTimeout(() => {
      say(`skein: shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s; exiting now`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    server.close().then(
      () => {
        log.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

const config = configOrExit();
const log = createLogger(config.logLevel);
let server: SkeinServer;
// Before any adapter starts a process: they inherit the owner mark set here.
const swept = sweepStaleProviderProcesses(config.dataDir);
if (swept.length > 0) log.warn({ pids: swept }, "ended provider processes left by a previous run");
startOrphanWatchdog();
try {
  // The registered adapters run the user's own provider setup (see providers/provider-registry).
  const adapters = await createServerAdapters({ env: process.env, dataDir: config.dataDir });
  server = await startSkein(config, log, adapters);
} catch (error) {
  if (error instanceof ConfigError) {
    say(`skein: refusing to start: ${error.message}`);
    process.exit(78); // EX_CONFIG
  }
  log.fatal({ err: error }, "startup failed");
  say(`skein: failed to start: ${startupFailure(error, config)}`);
  process.exit(1);
}
stopOnSignals(server, log);
log.info({ url: server.url, auth: config.apiToken !== null }, "skein api listening");
say(`Skein API   ${server.url}/trpc   (health: ${server.url}/healthz)`);
say(`Data        ${config.dataDir}${config.apiToken ? "   (API token required)" : ""}`);
if (config.database.kind === "postgres") {
  say(`Database    PostgreSQL, shared; this instance is ${config.instanceId}`);
  // Issue 35: plain folders' checkpoints must be readable by every instance sharing the database.
  say(
    config.checkpointsDir !== path.join(config.dataDir, "checkpoints")
      ? `Checkpoints ${config.checkpointsDir}   (plain folders; shared with the other instances)`
      : `Checkpoints ${config.checkpointsDir}   (plain folders; give every instance the same SKEIN_CHECKPOINTS_DIR)`,
  );
}
