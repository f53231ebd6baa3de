import type { ThreadId } from "@skein/domain";
import {
  functionCallOutputs,
  functionCallReply,
  messageTexts,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import {
  type CodexSkeinHarness,
  eventually,
  useCodexSkeinHarness,
} from "./support/codex-skein-harness.ts";

const harness = useCodexSkeinHarness();

/** The native thread ref of the provider thread that ran `runId`. */
async function nativeThreadOf(x: CodexSkeinHarness, threadId: ThreadId, runId: string) {
  const state = await x.thread(threadId);
  const run = [...state.runs.values()].find((r) => r.id === runId);
  const pt = run?.providerThreadId ? state.providerThreads.get(run.providerThreadId) : undefined;
  if (!pt) throw new Error(`run ${runId} has no provider thread`);
  return { providerThreadId: pt.id, nativeThreadRef: pt.nativeThreadRef };
}

/**
 * One completed run ("KILO-ONE"), then a slow second one whose app-server is SIGKILLed while
 * it runs; the model's next answer is `nextReply`.
 */
async function killedMidSecondRun(x: CodexSkeinHarness, nextReply: string) {
  x.server.enqueue(
    responsesTextReply("KILO-ANSWER"),
    responsesSlowTextReply(["never ", "gets ", "to ", "the ", "end ", "of ", "this "], 300),
    responsesTextReply(nextReply),
  );
  const threadId = await x.createThread();
  const first = await x.run(threadId, "KILO-ONE");
  const runId = await x.send(threadId, "second, slowly");
  await x.server.waitForRequests(2);
  await eventually(async () =>
    expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("running"),
  );
  const session = x.codexSessions.at(-1);
  if (!session?.pid) throw new Error("no live Codex session");
  process.kill(session.pid, "SIGKILL");
  return { threadId, first, runId };
}

describe("Codex through Skein: crashes, restarts, delegation, raw log", () => {
  it("R2: with new attempts off, a SIGKILLed app-server ends the run (never left running); the next message resumes the same provider thread with its history", async () => {
    const x = await harness({ attempts: { maxRetries: 0 } });
    const { threadId, first, runId } = await killedMidSecondRun(x, "back again");
    const killed = await x.waitForRunStatus(threadId, runId, ["failed", "interrupted"], 10_000);
    expect(killed.error).toMatch(/SIGKILL/);
    expect((await x.thread(threadId)).activeRunId).toBeNull();

    const after = await x.run(threadId, "after the crash");
    expect(after.run.status).toBe("completed");
    expect(x.codexSessions).toHaveLength(2);
    const before = await nativeThreadOf(x, threadId, first.runId);
    const now = await nativeThreadOf(x, threadId, after.runId);
    expect(now).toEqual(before);
    const resumes = x.sent("thread/resume");
    expect(resumes).toHaveLength(1);
    expect(resumes[0]?.payload).toMatchObject({ params: { threadId: before.nativeThreadRef } });
    const history = x.request(-1);
    expect(messageTexts(history, "user")).toEqual(
      expect.arrayContaining(["KILO-ONE", "second, slowly", "after the crash"]),
    );
    expect(messageTexts(history, "assistant")).toContain("KILO-ANSWER");
  });

  it("B2: a SIGKILLed app-server mid-turn gets a provider_recovery attempt: a new runtime resumes the provider thread and the same run completes", async () => {
    const x = await harness({ attempts: { baseDelayMs: 50 } });
    const { threadId, first, runId } = await killedMidSecondRun(x, "RECOVERED-ANSWER");
    const done = await x.waitForRunStatus(threadId, runId, ["completed", "failed"], 30_000);
    expect(done.status).toBe("completed");
    const state = await x.thread(threadId);
    const attempts = [...state.attempts.values()].filter((a) => a.runId === runId);
    expect(attempts.map((a) => [a.reason, a.status])).toEqual([
      ["initial", "superseded"],
      ["provider_recovery", "completed"],
    ]);
    const failedTurn = [...state.providerTurns.values()].find(
      (t) => t.runAttemptId === attempts[0]!.id,
    );
    expect(failedTurn?.error).toMatch(/SIGKILL/);
    expect(x.codexSessions).toHaveLength(2);
    const before = await nativeThreadOf(x, threadId, first.runId);
    expect(await nativeThreadOf(x, threadId, runId)).toEqual(before);
    const resumes = x.sent("thread/resume");
    expect(resumes).toHaveLength(1);
    expect(resumes[0]?.payload).toMatchObject({ params: { threadId: before.nativeThreadRef } });
    const history = x.request(-1);
    expect(messageTexts(history, "user")).toEqual(
      expect.arrayContaining(["KILO-ONE", "second, slowly"]),
    );
    expect(messageTexts(history, "assistant")).toContain("KILO-ANSWER");
    const answers = [...state.turnItems.values()]
      .map((e) => e.item)
      .filter((i) => i.type === "assistant_message" && i.runId === runId);
    expect(answers.at(-1)).toMatchObject({ text: "RECOVERED-ANSWER" });
  });

  it("R2: after Skein restarts between two messages the thread resumes via thread/resume with its history", async () => {
    const x = await harness();
    x.server.enqueue(responsesTextReply("BEFORE-ANSWER"), responsesTextReply("AFTER-ANSWER"));
    const threadId = await x.createThread();
    const first = await x.run(threadId, "BEFORE-RESTART");
    const sessionsBefore = x.codexSessions.length;
    await x.restart();
    expect(x.codexSessions[sessionsBefore - 1]?.isAlive()).toBe(false);

    const second = await x.run(threadId, "AFTER-RESTART");
    expect(second.run.status).toBe("completed");
    const ref = (await nativeThreadOf(x, threadId, first.runId)).nativeThreadRef;
    expect((await nativeThreadOf(x, threadId, second.runId)).nativeThreadRef).toBe(ref);
    const resumes = x.sent("thread/resume");
    expect(resumes).toHaveLength(1);
    expect(resumes[0]?.payload).toMatchObject({ params: { threadId: ref } });
    expect(x.sent("thread/start")).toHaveLength(1);
    const history = x.request(-1);
    expect(messageTexts(history, "user")).toEqual(
      expect.arrayContaining(["BEFORE-RESTART", "AFTER-RESTART"]),
    );
    expect(messageTexts(history, "assistant")).toContain("BEFORE-ANSWER");
  });

  it("T9: Codex's skein_delegate call spawns a child thread on another provider and the Codex turn receives the child's answer", async () => {
    const x = await harness();
    x.server.enqueue(
      functionCallReply(
        "skein_delegate",
        { provider: "claude", prompt: "DELEGATED-TASK" },
        "call_delegate",
      ),
      responsesTextReply("parent continues"),
    );
    const threadId = await x.createThread();
    const parent = await x.run(threadId, "delegate please");
    expect(parent.run.status).toBe("completed");

    const [start] = x.sent("thread/start");
    expect(start?.payload).toMatchObject({
      params: {
        dynamicTools: [
          expect.objectContaining({ name: "skein_delegate" }),
          expect.objectContaining({ name: "skein_history" }),
        ],
      },
    });
    const tools = (x.request(0).tools as Array<{ name?: string }> | undefined) ?? [];
    expect(tools.map((t) => t.name)).toContain("skein_delegate");

    const state = await x.thread(threadId);
    const result = [...state.transfers.values()].find((t) => t.type === "subagent_result");
    if (!result) throw new Error("no subagent_result transfer on the parent");
    expect(result).toMatchObject({ status: "consumed", consumedByRunId: parent.runId });
    const child = await x.thread(result.sourceThreadId);
    expect(child.thread?.lineage).toMatchObject({ parentThreadId: threadId });
    const [childRun] = [...child.runs.values()];
    expect(childRun).toMatchObject({ provider: "claude", status: "completed" });
    const childTurns = x.claude.calls.filter((c) => c.op === "startTurn");
    expect(childTurns).toHaveLength(1);

    // The scripted child echoes its prompt (with the turn that asked for it); exactly that came
    // back to the model as tool output.
    expect(functionCallOutputs(x.request(1))).toEqual([
      {
        callId: "call_delegate",
        output: expect.stringMatching(/^ok: DELEGATED-TASK\n[\s\S]*delegate please\)$/),
      },
    ]);
  });

  it("E18: with a small cap the raw log rotates and stays bounded; Skein's state does not depend on it", async () => {
    const cap = { maxFileBytes: 4_096, maxFiles: 3 };
    const x = await harness({ rawLog: cap });
    const threadId = await x.createThread();
    for (let i = 1; i <= 3; i += 1) {
      x.server.enqueue(responsesTextReply(`RAW-ANSWER-${i}`));
      expect((await x.run(threadId, `RAW-QUESTION-${i}`)).run.status).toBe("completed");
    }

    const files = x.rawLogFiles();
    const written = x.frames.length;
    expect(written).toBeGreaterThan(30);
    expect(files.length).toBeLessThanOrEqual(cap.maxFiles);
    for (const file of files) expect(file.bytes).toBeLessThanOrEqual(cap.maxFileBytes);
    const total = files.reduce((sum, f) => sum + f.bytes, 0);
    expect(total).toBeLessThanOrEqual(cap.maxFiles * cap.maxFileBytes);
    // Rotation happened: the oldest files (and the frames of the first turns) are gone.
    const newest = Number(/raw-(\d+)/.exec(files.at(-1)?.name ?? "")?.[1]);
    expect(newest).toBeGreaterThan(cap.maxFiles);

    // No raw frame reached the database, and a fresh orchestrator rebuilds the whole thread from
    // the store alone although the frames behind its first turns have rotated away.
    const events = JSON.stringify(await x.store.readAll(0));
    expect(events).not.toMatch(/jsonRpcId|item\/agentMessage\/delta|"method":"turn\/start"/);
    await x.restart();
    const state = await x.thread(threadId);
    const answers = [...state.turnItems.values()]
      .sort((a, b) => a.sortKey - b.sortKey)
      .flatMap((e) => (e.item.type === "assistant_message" ? [e.item.text] : []));
    expect(answers).toEqual(["RAW-ANSWER-1", "RAW-ANSWER-2", "RAW-ANSWER-3"]);
  });
});
