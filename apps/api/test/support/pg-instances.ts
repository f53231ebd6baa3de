import fs from "node:fs";
import { type EventStore, openEventStore } from "@skein/db";
import type { ProviderAdapter, ProviderSessionHandle } from "@skein/domain/provider";
import { createSkeinClient, type SkeinClient } from "../../src/client.ts";
import { createHttpRuntimeRemote } from "../../src/http/runtime-remote.ts";
import { createLogger, createSilentLogger } from "../../src/logger.ts";
import {
  createOrchestrator,
  type Orchestrator,
  type OrchestratorOptions,
} from "../../src/orchestrator/index.ts";
import { type SkeinServer, startServer } from "../../src/server.ts";
import { tempDir, WEB_ORIGIN } from "./test-server.ts";

/** One API instance (store, orchestrator, HTTP server) on a database other instances share. */
export type PgInstance = {
  id: string;
  store: EventStore;
  orchestrator: Orchestrator;
  server: SkeinServer;
  client: SkeinClient;
  /** Sessions this instance opened on the provider (which instance ran which turn). */
  opened: string[];
  /** Their handles, oldest first (a test may kill a provider process through one). */
  sessions: ProviderSessionHandle[];
  close(): Promise<void>;
};

/**
 * Starts an instance as `main.ts` would (store → orchestrator → recovery → server) but in this
 * process, so a test can hold two of them on one schema. The provider is shared, as two
 * instances share the user's Codex home: a native thread started on one resumes on the other.
 */
export async function startPgInstance(options: {
  id: string;
  url: string;
  codex: ProviderAdapter;
  /** Claude too, when a test runs it (shared the same way: one CLAUDE_CONFIG_DIR). */
  claude?: ProviderAdapter;
  leaseTtlMs: number;
  /** Plain folders' checkpoint store, shared with the other instances (else in this one's data dir). */
  checkpointsDir?: string;
  /** Wraps the instance's store (e.g. to make an append fail as a database error would). */
  wrapStore?: (store: EventStore) => EventStore;
  /** B17: where GitHub is (a fake) and its token. */
  github?: OrchestratorOptions["github"];
}): Promise<PgInstance> {
  const raw = await openEventStore({ url: options.url, pollIntervalMs: 100 });
  const store = options.wrapStore ? options.wrapStore(raw) : raw;
  const dataDir = tempDir("skein-pg-instance-");
  const opened: string[] = [];
  const sessions: ProviderSessionHandle[] = [];
  const observed = (adapter: ProviderAdapter): ProviderAdapter => ({
    ...adapter,
    async openSession(input) {
      opened.push(input.providerSessionId);
      const handle = await adapter.openSession(input);
      sessions.push(handle);
      return handle;
    },
  });
  const codex = observed(options.codex);
  const claude = options.claude ? observed(options.claude) : undefined;
  const orchestrator = await createOrchestrator({
    store,
    adapters: { codex, ...(claude ? { claude } : {}) },
    dataDir,
    ...(options.checkpointsDir ? { checkpointsDir: options.checkpointsDir } : {}),
    sessionIdleMs: 0,
    ...(process.env.SKEIN_TEST_LOG ? { log: createLogger("debug") } : {}),
    instanceId: options.id,
    leaseTtlMs: options.leaseTtlMs,
    remote: createHttpRuntimeRemote({ instanceId: options.id, apiToken: null }),
    ...(options.github ? { github: options.github } : {}),
  });
  await orchestrator.recover();
  const server = await startServer({
    orchestrator,
    store,
    host: "127.0.0.1",
    port: 0,
    webOrigins: [WEB_ORIGIN],
    apiToken: null,
    dataDirs: [dataDir],
    log: createSilentLogger(),
    shutdownGraceMs: 2_000,
  });
  await orchestrator.advertise(server.url);
  return {
    id: options.id,
    store,
    orchestrator,
    server,
    client: createSkeinClient({ url: server.url }),
    opened,
    sessions,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
