import { createScriptedProvider, type ScriptedProvider } from "@skein/scripted-provider";
import { afterEach, beforeEach } from "vitest";
import { createGitWorkspace } from "./git-workspace.ts";
import { type PgInstance, startPgInstance } from "./pg-instances.ts";
import { scratchSchema } from "./postgres.ts";

export type PgPair = { a: PgInstance; b: PgInstance; codex: ScriptedProvider; ws: string };

/**
 * For a test file: before each test, two API instances ("A", "B") on a fresh PostgreSQL schema,
 * one scripted Codex they share, and one git workspace; all closed after the test. `ready`
 * receives them, so a file keeps its own names.
 */
export function usePgPair(ready: (pair: PgPair) => void): void {
  const cleanups: (() => unknown)[] = [];
  let pair: Partial<PgPair> = {};
  beforeEach(async () => {
    const database = await scratchSchema();
    cleanups.push(() => database.drop());
    const codex = createScriptedProvider({ provider: "codex" });
    const a = await startPgInstance({ id: "A", url: database.url, codex, leaseTtlMs: 5_000 });
    const b = await startPgInstance({ id: "B", url: database.url, codex, leaseTtlMs: 5_000 });
    pair = { a, b, codex, ws: createGitWorkspace({ "f.txt": "zero\n" }) };
    ready(pair as PgPair);
  });
  afterEach(async () => {
    await Promise.allSettled([pair.a?.close(), pair.b?.close()]);
    pair = {};
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
}
