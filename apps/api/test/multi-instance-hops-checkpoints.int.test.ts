import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClaudeAdapter } from "@skein/adapters-claude";
import {
  anthropicBashReply,
  anthropicTextReply,
  anthropicUserTexts,
  execCommandReply,
  responsesTextReply,
  startFakeMessagesServer,
} from "@skein/fake-models";
import type { RunId } from "@skein/domain";
import { afterEach, describe, expect, it } from "vitest";
import type { PgInstance } from "./support/pg-instances.ts";
import { eventually } from "./support/orchestrator-harness.ts";
import { pgCodexSetup } from "./support/pg-codex.ts";

// Issue 35 item 3: two instances on one PostgreSQL schema share the runtimes' homes (CODEX_HOME,
// CLAUDE_CONFIG_DIR), a checkpoints dir, and a plain (non-git) project folder; every run writes
// a file. A run's checkpoint is captured on whichever instance ran it, against the previous
// run's checkpoint, which the other instance captured: while each instance kept plain folders'
// checkpoints in its own data dir, every checkpoint after a hop ended `error` ("parent ref
// missing").

const HOPS = 10;
/** No login shell (a slow profile would let the turn end first), and time for the command. */
const NO_LOGIN = { extra: { login: false, yield_time_ms: 60_000 } };
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Hops = {
  a: PgInstance;
  b: PgInstance;
  workspace: string;
  provider: "codex" | "claude";
  /** Scripts run `i`: write `hop-i.txt` with "hop i", then answer. */
  script(i: number): void;
};

/**
 * Sends HOPS messages alternating A, B, A…, each once the previous instance has let the thread
 * go (sent earlier, the instance still holding the lease runs it and the thread never hops),
 * then checks that all ran natively on one provider thread and every checkpoint is ready with
 * exactly that run's file.
 */
async function alternate({ a, b, workspace, provider, script }: Hops) {
  const { projectId } = await a.client.project.create.mutate({
    name: "plain folder",
    workspaceRoot: workspace,
  });
  const { threadId } = await a.client.thread.create.mutate({
    projectId,
    provider,
    runtimeMode: "full-access",
  });
  const runIds: RunId[] = [];
  for (let i = 0; i < HOPS; i += 1) {
    script(i);
    const on = i % 2 === 0 ? a : b;
    const { runId } = await on.client.thread.sendMessage.mutate({ threadId, text: `MSG-${i}` });
    runIds.push(runId);
    await eventually(async () => {
      const detail = await on.client.thread.detail.query({ threadId });
      expect(detail.runs.find((run) => run.id === runId)?.status).toBe("completed");
      expect(detail.checkpoints.find((c) => c.runId === runId)?.status).toMatch(/ready|error/);
    }, 60_000);
    await eventually(async () => expect(await on.store.runtimeLeases.get(threadId)).toBeNull());
  }

  const detail = await b.client.thread.detail.query({ threadId });
  expect(detail.runs.map((run) => run.status)).toEqual(runIds.map(() => "completed"));
  // Native 10 of 10: one provider thread, no handoff rebuilt from a summary.
  expect(new Set(detail.runs.map((run) => run.providerThreadId)).size).toBe(1);
  expect(detail.transfers).toEqual([]);
  // Both instances opened runtimes: the thread really moved between them.
  expect(a.opened.length).toBeGreaterThan(0);
  expect(b.opened.length).toBeGreaterThan(0);

  // Every run's checkpoint is ready and lists exactly the file that run wrote: its parent, the
  // previous run's checkpoint taken on the other instance, was resolved.
  for (const [i, runId] of runIds.entries()) {
    const checkpoint = detail.checkpoints.find((c) => c.runId === runId);
    expect({ run: i, status: checkpoint?.status }).toEqual({ run: i, status: "ready" });
    expect(checkpoint?.files.map((f) => f.path)).toEqual([`hop-${i}.txt`]);
    expect(readFileSync(path.join(workspace, `hop-${i}.txt`), "utf8")).toBe(`hop ${i}\n`);
  }
}

describe("two API instances on PostgreSQL, runs alternating between them", () => {
  it("R2, E7: 10 alternating hops resume the one Codex thread natively and every checkpoint is ready on either instance", async () => {
    const { server, workspace, start } = await pgCodexSetup(cleanups, {
      leaseTtlMs: 2_000,
      workspacePrefix: "skein-hops-cp-ws-",
    });
    const a = await start("A");
    cleanups.push(() => a.close());
    const b = await start("B");
    cleanups.push(() => b.close());
    await alternate({
      a,
      b,
      workspace,
      provider: "codex",
      script: (i) =>
        server.enqueue(
          execCommandReply(`printf 'hop ${i}\\n' > hop-${i}.txt`, NO_LOGIN),
          responsesTextReply(`WROTE-${i}`),
        ),
    });
  }, 600_000);

  it("R2, E7: 10 alternating hops resume the one Claude session natively and every checkpoint is ready on either instance", async () => {
    const { workspace, start } = await pgCodexSetup(cleanups, {
      leaseTtlMs: 2_000,
      workspacePrefix: "skein-hops-cp-claude-ws-",
    });
    const anthropic = await startFakeMessagesServer();
    cleanups.push(() => anthropic.close());
    const configDir = mkdtempSync(path.join(tmpdir(), "skein-hops-claude-config-"));
    cleanups.push(() => rmSync(configDir, { recursive: true, force: true }));
    const claude = createClaudeAdapter({ configDir, baseUrl: anthropic.url, apiKey: "test" });
    const a = await start("A", { claude });
    cleanups.push(() => a.close());
    const b = await start("B", { claude });
    cleanups.push(() => b.close());
    await alternate({
      a,
      b,
      workspace,
      provider: "claude",
      script: (i) =>
        anthropic.enqueue(
          anthropicBashReply(`printf 'hop ${i}\\n' > hop-${i}.txt`),
          anthropicTextReply(`WROTE-${i}`),
        ),
    });
    // The last run's request carries the whole conversation: every hop continued the session.
    const last = anthropic.conversationRequests().at(-1);
    if (!last) throw new Error("no model request");
    const users = anthropicUserTexts(last).filter((text) => /^MSG-\d+$/.test(text.trim()));
    expect(users.map((text) => text.trim())).toEqual(
      Array.from({ length: HOPS }, (_, i) => `MSG-${i}`),
    );
  }, 600_000);
});
