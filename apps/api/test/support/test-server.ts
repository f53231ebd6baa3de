import fs from "node:fs";
import type { ProjectId } from "@skein/domain";
import os from "node:os";
import path from "node:path";
import { openSqliteEventStore, type RawLogReader, type SqliteEventStore } from "@skein/db";
import { createSkeinClient, type SkeinClient } from "../../src/client.ts";
import { createSilentLogger } from "../../src/logger.ts";
import type { OrchestratorCommands } from "@skein/contract";
import { AttachmentStore } from "../../src/attachments/attachment-store.ts";
import { type SkeinServer, startServer } from "../../src/server.ts";

export const WEB_ORIGIN = "http://127.0.0.1:4318";

export type TestServer = {
  server: SkeinServer;
  store: SqliteEventStore;
  orchestrator: OrchestratorCommands;
  client: SkeinClient;
  dataDir: string;
  /** An empty folder outside the data dir, for projects' workspaces (B4 refuses the data dir). */
  workspaceDir: string;
  close(): Promise<void>;
};

export function tempDir(prefix = "skein-api-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A real HTTP server on 127.0.0.1:0 over a real SQLite store in a temp dir. */
export async function startTestServer<O extends OrchestratorCommands>(options: {
  orchestrator: (store: SqliteEventStore, dataDir: string) => O | Promise<O>;
  token?: string;
  maxReplayEvents?: number;
  subscriberBufferSize?: number;
  rawLog?: RawLogReader;
}): Promise<TestServer & { orchestrator: O }> {
  const dataDir = tempDir();
  const workspaceDir = tempDir("skein-api-ws-");
  const store = openSqliteEventStore({
    dataDir,
    ...(options.subscriberBufferSize ? { subscriberBufferSize: options.subscriberBufferSize } : {}),
  });
  const orchestrator = await options.orchestrator(store, dataDir);
  const server = await startServer({
    orchestrator,
    store,
    host: "127.0.0.1",
    port: 0,
    webOrigins: [WEB_ORIGIN],
    apiToken: options.token ?? null,
    dataDirs: [dataDir],
    attachments: AttachmentStore.inDataDir(dataDir),
    log: createSilentLogger(),
    shutdownGraceMs: 2_000,
    ...(options.maxReplayEvents === undefined ? {} : { maxReplayEvents: options.maxReplayEvents }),
    ...(options.rawLog ? { rawLog: options.rawLog } : {}),
  });
  const client = createSkeinClient({
    url: server.url,
    ...(options.token === undefined ? {} : { token: options.token }),
  });
  return {
    server,
    store,
    orchestrator,
    client,
    dataDir,
    workspaceDir,
    async close() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(workspaceDir, { recursive: true, force: true });
    },
  };
}

/** Creates a project named `name` on the server's own workspace folder; resolves with its id. */
export async function workspaceProject(
  t: Pick<TestServer, "client" | "workspaceDir">,
  name: string,
): Promise<ProjectId> {
  return (await t.client.project.create.mutate({ name, workspaceRoot: t.workspaceDir })).projectId;
}
