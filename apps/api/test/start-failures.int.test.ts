import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveClaudeExecutable } from "@skein/adapters-claude/testing";
import type { RunId, ThreadId } from "@skein/domain";
import { createCodexAdapter } from "@skein/adapters-codex";
import { anthropicTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import { describeStartFailure } from "../src/orchestrator/runs/workspace-check.ts";
import {
  type ClaudeSkeinHarness,
  createClaudeSkeinHarness,
} from "./support/claude-skein-harness.ts";
import { type CodexSkeinHarness, createCodexSkeinHarness } from "./support/codex-skein-harness.ts";

/** How long the log must stay still after the failures for the thread to count as quiet. */
const QUIET_MS = 1_500;
const MAX_EVENTS_PER_FAILED_RUN = 20;

let codex: CodexSkeinHarness | null = null;
let claude: ClaudeSkeinHarness | null = null;
afterEach(async () => {
  await codex?.close();
  await claude?.close();
  codex = null;
  claude = null;
});

type Store = CodexSkeinHarness["store"];

/** Events appended since `from`, by type, leaving out the messages' own RunQueued. */
async function eventsSince(store: Store, from: number) {
  const events = await store.readAll(from);
  return events.filter((e) => e.type !== "RunQueued");
}

async function expectQuiet(store: Store) {
  const head = await store.headSequence();
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  expect(await store.headSequence()).toBe(head);
}

async function expectIdle(state: Awaited<ReturnType<CodexSkeinHarness["thread"]>>) {
  expect(state.activeRunId).toBeNull();
  expect(state.queuedRunIds.size).toBe(0);
}

describe("B1: a run whose provider cannot start (real Codex app-server)", () => {
  it("B1: every run fails once with the cause, the queue behind it ends, the log goes quiet, and the next message after the fix completes", async () => {
    codex = await createCodexSkeinHarness();
    const h = codex;
    const threadId = await h.createThread();
    // The real app-server refuses to start without its CODEX_HOME: every spawn exits at once.
    const away = `${h.codexHome}.away`;
    renameSync(h.codexHome, away);
    const from = await h.store.headSequence();
    const runIds: RunId[] = [];
    for (const text of ["one", "two", "three", "four"]) runIds.push(await h.send(threadId, text));
    const runs = [];
    for (const runId of runIds) runs.push(await h.waitForRunStatus(threadId, runId, ["failed"]));
    for (const run of runs.slice(0, 3)) {
      expect(run.error).toMatch(/^The Codex runtime could not be started: /);
      expect(run.error).toContain("CODEX_HOME");
      expect(run.error).toMatch(/then send the message again\.$/);
    }
    // The breaker: after three failed starts the run queued behind them is not tried again.
    expect(runs[3]!.error).toMatch(/^Not started: 3 runs in a row on this thread failed to start/);
    const events = await eventsSince(h.store, from);
    expect(events.filter((e) => e.type === "ProviderSessionOpened")).toHaveLength(3);
    expect(events.length / runIds.length).toBeLessThanOrEqual(MAX_EVENTS_PER_FAILED_RUN);
    await expectQuiet(h.store);
    await expectIdle(await h.thread(threadId));

    renameSync(away, h.codexHome);
    const { run } = await h.run(threadId, "after the fix");
    expect(run.status).toBe("completed");
    expect(run.error).toBeNull();
  }, 90_000);

  it("B1: a workspace folder deleted after the project was made fails the run once, naming the folder, also across a restart; restored, the next message completes", async () => {
    codex = await createCodexSkeinHarness();
    const h = codex;
    const threadId = await h.createThread();
    rmSync(h.workspace, { recursive: true, force: true });
    const from = await h.store.headSequence();
    const first = await h.send(threadId, "where did it go");
    const queued = await h.send(threadId, "queued behind it");
    const failed = await h.waitForRunStatus(threadId, first, ["failed"]);
    expect(failed.error).toContain(`The workspace folder ${h.workspace} does not exist`);
    expect(failed.error).not.toMatch(/ENOENT|codex app-server/);
    expect((await h.waitForRunStatus(threadId, queued, ["failed"])).error).toContain(h.workspace);
    // Nothing was spawned for a folder that is not there: one RunFinished per run.
    const events = await eventsSince(h.store, from);
    expect(events.map((e) => e.type)).toEqual(["RunFinished", "RunFinished"]);
    expect(h.codexSessions).toHaveLength(0);
    await expectQuiet(h.store);
    await expectIdle(await h.thread(threadId));
    // A restart finds nothing to dispatch again: failed runs are not queued runs.
    await h.restart();
    await expectQuiet(h.store);
    await expectIdle(await h.thread(threadId));

    mkdirSync(h.workspace);
    const { run } = await h.run(threadId, "it is back");
    expect(run.status).toBe("completed");
  }, 90_000);

  it("B1: a spawn ENOENT caused by a missing working folder is reported as the folder, not the binary", async () => {
    codex = await createCodexSkeinHarness();
    const missing = `${codex.workspace}/gone`;
    const adapter = createCodexAdapter({ codexHome: codex.codexHome });
    const error = await adapter
      .openSession({ providerSessionId: "pss_enoent" as never, cwd: missing, model: null })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(String(error)).toMatch(/ENOENT/);
    const text = await describeStartFailure(error, "codex", missing);
    expect(text).toContain(`The workspace folder ${missing} does not exist`);
    expect(text).not.toMatch(/ENOENT|binary/);
  }, 30_000);
});

describe("B1: a run whose workspace is gone (real Claude Agent SDK)", () => {
  it("B1: the run fails once naming the folder, the log goes quiet, and once the folder is back the next message completes", async () => {
    claude = await createClaudeSkeinHarness();
    const h = claude;
    const threadId: ThreadId = await h.createThread();
    rmSync(h.workspaceRoot, { recursive: true, force: true });
    const from = await h.store.headSequence();
    const { runId, state } = await h.send(threadId, "anyone there?");
    const run = state.runs.get(runId)!;
    expect(run.status).toBe("failed");
    expect(run.error).toContain(`The workspace folder ${h.workspaceRoot} does not exist`);
    expect((await eventsSince(h.store, from)).map((e) => e.type)).toEqual(["RunFinished"]);
    expect(h.claudeSpawns()).toBe(0);
    await expectQuiet(h.store);
    await expectIdle(await h.thread(threadId));

    mkdirSync(h.workspaceRoot);
    const after = await h.send(threadId, "and now?");
    expect(after.state.runs.get(after.runId)?.status).toBe("completed");
  }, 90_000);
});

describe("B1: a Claude provider whose runtime is missing (real Claude Agent SDK)", () => {
  it("B1, B15: every message is refused before any work with the fix in words, the log stays quiet, and the next message after the fix completes", async () => {
    // The adapter runs a `claude` that is not there yet; the fix links the bundled one in.
    const bin = mkdtempSync(join(tmpdir(), "skein-claude-bin-"));
    const executable = join(bin, "claude");
    try {
      claude = await createClaudeSkeinHarness({ claudeExecutablePath: executable });
      const h = claude;
      h.anthropic.enqueue(anthropicTextReply("after the fix"));
      const threadId = await h.createThread();
      const from = await h.store.headSequence();
      for (const text of ["one", "two", "three", "four"]) {
        // B15: a provider that is not ready is refused at once, in words, with nothing appended.
        await expect(h.orchestrator.sendMessage({ threadId, text })).rejects.toThrow(
          /Claude Code runtime was not found/,
        );
      }
      expect(await eventsSince(h.store, from)).toEqual([]);
      await expectQuiet(h.store);
      await expectIdle(await h.thread(threadId));

      symlinkSync(resolveClaudeExecutable({})!, executable);
      const after = await h.send(threadId, "and now?");
      const run = after.state.runs.get(after.runId)!;
      expect([run.status, run.error]).toEqual(["completed", null]);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  }, 180_000);
});
