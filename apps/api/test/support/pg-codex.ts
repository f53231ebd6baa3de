import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCodexAdapter } from "@skein/adapters-codex";
import type { ProviderAdapter } from "@skein/domain/provider";
import { createCodexTestHome, startFakeResponsesServer } from "@skein/fake-models";
import { startPgInstance } from "./pg-instances.ts";
import { scratchSchema } from "./postgres.ts";

/**
 * What the multi-instance tests on real Codex share: a scratch PostgreSQL schema, the fake
 * Responses API, one CODEX_HOME on it (as instances on shared storage share the user's), one
 * checkpoints dir (SKEIN_CHECKPOINTS_DIR, shared the same way), a workspace folder, and
 * `start(id)` for an API instance on them. Everything made here is
 * undone by `cleanups` (the caller runs them after its test); instances are the caller's to close.
 */
export async function pgCodexSetup(
  cleanups: (() => unknown)[],
  options: { leaseTtlMs: number; workspacePrefix: string },
) {
  const database = await scratchSchema();
  cleanups.push(() => database.drop());
  const server = await startFakeResponsesServer();
  cleanups.push(() => server.close());
  const home = await createCodexTestHome({ baseUrl: server.url, model: "gpt-5.5" });
  cleanups.push(() => home.remove());
  const workspace = mkdtempSync(join(tmpdir(), options.workspacePrefix));
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }));
  const checkpointsDir = mkdtempSync(join(tmpdir(), "skein-shared-checkpoints-"));
  cleanups.push(() => rmSync(checkpointsDir, { recursive: true, force: true }));
  const codex = createCodexAdapter({ codexHome: home.dir, env: { RUST_LOG: "error" } });
  const start = (id: string, more: { claude?: ProviderAdapter } = {}) =>
    startPgInstance({
      id,
      url: database.url,
      codex,
      ...more,
      leaseTtlMs: options.leaseTtlMs,
      checkpointsDir,
    });
  return { server, workspace, start };
}
