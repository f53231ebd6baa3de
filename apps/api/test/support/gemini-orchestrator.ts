import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGeminiAdapter } from "@skein/adapters-acp";
import { openSqliteEventStore, type SqliteEventStore } from "@skein/db";
import type { ProjectId } from "@skein/domain";
import {
  createGeminiTestHome,
  type FakeGeminiServer,
  type GeminiTestHome,
  startFakeGeminiServer,
} from "@skein/fake-models";
import { afterAll, beforeAll } from "vitest";
import {
  createOrchestrator,
  type Orchestrator,
  type OrchestratorOptions,
} from "../../src/orchestrator/index.ts";

export type GeminiOrchestrator = {
  store: SqliteEventStore;
  orchestrator: Orchestrator;
  gemini: FakeGeminiServer;
  home: GeminiTestHome;
  projectId: ProjectId;
};

/**
 * For a test file: an orchestrator whose only provider is the real Gemini CLI (ACP) on a fake
 * Gemini API, over a SQLite store, with one project on a temp folder; closed after the file.
 * `ready` receives them once started, so the file keeps its own names for them.
 */
export function useGeminiOrchestrator(
  label: string,
  options: Pick<OrchestratorOptions, "attempts">,
  ready: (started: GeminiOrchestrator) => void,
): void {
  const dirs = {
    data: mkdtempSync(join(tmpdir(), `skein-${label}-data-`)),
    work: mkdtempSync(join(tmpdir(), `skein-${label}-work-`)),
  };
  let started: Partial<GeminiOrchestrator> = {};
  beforeAll(async () => {
    const gemini = await startFakeGeminiServer();
    started = { gemini };
    const home = await createGeminiTestHome({ baseUrl: gemini.url });
    started.home = home;
    const store = openSqliteEventStore({ dataDir: dirs.data });
    started.store = store;
    const orchestrator = await createOrchestrator({
      store,
      adapters: { gemini: createGeminiAdapter({ env: home.env }) },
      dataDir: dirs.data,
      sessionIdleMs: 0,
      ...options,
    });
    started.orchestrator = orchestrator;
    const { projectId } = await orchestrator.createProject({
      name: label,
      workspaceRoot: dirs.work,
    });
    ready({ store, orchestrator, gemini, home, projectId });
  }, 60_000);
  afterAll(async () => {
    await started.orchestrator?.shutdown();
    await started.store?.close();
    await started.gemini?.close();
    await started.home?.remove();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  });
}
