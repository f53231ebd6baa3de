import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ThreadId } from "@skein/domain";
import { messageTexts, responsesTextReply } from "@skein/fake-models";
import { afterEach, describe, expect, it } from "vitest";
import {
  type CodexSkeinHarness,
  eventually,
  useCodexSkeinHarness,
} from "./support/codex-skein-harness.ts";

const harness = useCodexSkeinHarness();
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

async function sessionStatuses(x: CodexSkeinHarness): Promise<string[]> {
  const { data } = await x.store.snapshot((q) => q.list("provider_sessions", {}));
  return data.map((row) => String(row.status));
}

/** A thread in a project of its own whose folder no other thread uses (so a runtime of its own). */
async function threadInOwnFolder(x: CodexSkeinHarness, folders: string[]): Promise<ThreadId> {
  const folder = mkdtempSync(join(tmpdir(), "skein-recycle-"));
  folders.push(folder);
  const { projectId } = await x.orchestrator.createProject({ name: "own", workspaceRoot: folder });
  const { threadId } = await x.orchestrator.createThread({
    projectId,
    title: "Own",
    provider: "codex",
  });
  return threadId;
}

/**
 * Three threads with a first exchange each; then the first thread's second message. With
 * `folders`, each thread is in a folder of its own (created there, removed by the caller).
 */
async function threeThreadsThenBack(x: CodexSkeinHarness, folders?: string[]) {
  x.server.enqueue(
    responsesTextReply("ANSWER-ONE"),
    responsesTextReply("ANSWER-TWO"),
    responsesTextReply("ANSWER-THREE"),
    responsesTextReply("ANSWER-ONE-AGAIN"),
  );
  const make = () => (folders ? threadInOwnFolder(x, folders) : x.createThread());
  const threads = [await make(), await make(), await make()];
  for (const [i, threadId] of threads.entries()) {
    expect((await x.run(threadId, `QUESTION-${i + 1}`)).run.status).toBe("completed");
  }
  return threads;
}

/** Resumed natively (no handoff, `thread/resume`): the model sees the thread's first exchange. */
function expectResumedWithHistory(x: CodexSkeinHarness, contextHandoffId: string | null) {
  expect(contextHandoffId).toBeNull();
  expect(x.sent("thread/resume")).toHaveLength(1);
  expect(messageTexts(x.request(-1), "user")).toEqual(
    expect.arrayContaining([
      expect.stringContaining("QUESTION-1"),
      expect.stringContaining("QUESTION-1-AGAIN"),
    ]),
  );
}

/**
 * B21 (issue 34 item 2): `codex app-server` keeps every thread it has loaded until its process
 * exits, and threads with a folder of their own each have a runtime, so memory grew with
 * every thread ever opened. A runtime at its thread limit drains (threads new to it go to a new
 * one) and, like runtimes past the live bound, is closed once idle; the next message resumes its
 * thread natively in a new one.
 */
describe("B21: runtime memory bounded by recycling (real codex app-server)", () => {
  it("B21/R2: a runtime at its thread limit drains: a new thread gets a new runtime, the drained one is closed once idle, and its thread resumes with its history", async () => {
    const x = await harness({
      runtimeLimits: { maxLoadedThreads: 2, maxRuntimes: 0, recycleIdleMs: 1_000 },
    });
    // Without a port range the threads share the project folder's one runtime.
    await x.orchestrator.updateProjectSettings({
      projectId: x.projectId,
      settings: { portRange: null, threadWorkspace: "local" },
    });
    const threads = await threeThreadsThenBack(x);
    // The third thread found the first runtime at its limit (two threads): a second one opened.
    expect(x.codexSessions).toHaveLength(2);
    const [first, second] = x.codexSessions;
    await eventually(async () => {
      expect(first!.isAlive()).toBe(false);
      expect(await sessionStatuses(x)).toEqual(["stopped", "ready"]);
    }, 20_000);
    expect(second!.isAlive()).toBe(true);
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 1, loadedThreads: 1 });

    const again = await x.run(threads[0]!, "QUESTION-1-AGAIN");
    expect(again.run.status).toBe("completed");
    expect(x.codexSessions).toHaveLength(2);
    expectResumedWithHistory(x, again.run.contextHandoffId);
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 1, loadedThreads: 2 });
  });

  it("B21: a draining runtime keeps serving the threads it holds loaded (no resume in another process)", async () => {
    const x = await harness({
      runtimeLimits: { maxLoadedThreads: 2, maxRuntimes: 0, recycleIdleMs: 60_000 },
    });
    await x.orchestrator.updateProjectSettings({
      projectId: x.projectId,
      settings: { portRange: null, threadWorkspace: "local" },
    });
    const threads = await threeThreadsThenBack(x);
    const [first] = x.codexSessions;
    const again = await x.run(threads[0]!, "QUESTION-1-AGAIN");
    expect(again.run.status).toBe("completed");
    expect(x.sent("thread/resume")).toHaveLength(0);
    expect(x.sent("turn/start").at(-1)?.providerSessionId).toBe(first!.providerSessionId);
    expect(x.codexSessions).toHaveLength(2);
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 2, loadedThreads: 3 });
  });

  it("B21/R2: beyond the bound on live runtimes the least recently used idle one is closed; its thread resumes with its history", async () => {
    const x = await harness({
      runtimeLimits: { maxLoadedThreads: 0, maxRuntimes: 2, recycleIdleMs: 1_000 },
    });
    // Each thread has a folder of its own, so a runtime of its own.
    const threads = await threeThreadsThenBack(x, folders);
    expect(x.codexSessions).toHaveLength(3);
    const [oldest, second, newest] = x.codexSessions;
    await eventually(async () => {
      expect(oldest!.isAlive()).toBe(false);
      expect(await sessionStatuses(x)).toEqual(["stopped", "ready", "ready"]);
    }, 20_000);
    expect([second!.isAlive(), newest!.isAlive()]).toEqual([true, true]);
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 2, loadedThreads: 2 });

    const again = await x.run(threads[0]!, "QUESTION-1-AGAIN");
    expect(again.run.status).toBe("completed");
    expect(x.codexSessions).toHaveLength(4);
    expectResumedWithHistory(x, again.run.contextHandoffId);
  });
});
