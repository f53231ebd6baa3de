import { messageTexts, responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { eventually, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

const harness = useCodexSkeinHarness();

/**
 * B21 (issue 34 item 2): `codex app-server` keeps every thread it has loaded until its process
 * exits, so its memory grows with every thread ever opened. A runtime that has loaded more than
 * the limit is closed once idle, and the next message resumes its thread natively in a new one.
 */
describe("B21: runtime memory bounded by recycling (real codex app-server)", () => {
  it("B21/R2: a runtime past its thread limit is recycled when idle; the next message resumes the thread with its history", async () => {
    const x = await harness({ runtimeLimits: { maxLoadedThreads: 2, recycleIdleMs: 1_000 } });
    x.server.enqueue(
      responsesTextReply("ANSWER-ONE"),
      responsesTextReply("ANSWER-TWO"),
      responsesTextReply("ANSWER-THREE"),
      responsesTextReply("ANSWER-ONE-AGAIN"),
    );
    const threads = [await x.createThread(), await x.createThread(), await x.createThread()];
    for (const [i, threadId] of threads.entries()) {
      const { run } = await x.run(threadId, `QUESTION-${i + 1}`);
      expect(run.status).toBe("completed");
    }
    // One runtime served all three threads, and now holds three: over the limit of two.
    expect(x.codexSessions).toHaveLength(1);
    const first = x.codexSessions[0]!;

    await eventually(async () => {
      expect(first.isAlive()).toBe(false);
      const { data } = await x.store.snapshot((q) => q.list("provider_sessions", {}));
      expect(data.map((row) => row.status)).toEqual(["stopped"]);
    }, 20_000);
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 0, loadedThreads: 0 });

    const again = await x.run(threads[0]!, "QUESTION-1-AGAIN");
    expect(again.run.status).toBe("completed");
    expect(x.codexSessions).toHaveLength(2);
    // Resumed natively (no handoff): the model sees the thread's first exchange.
    expect(again.run.contextHandoffId).toBeNull();
    expect(x.sent("thread/resume")).toHaveLength(1);
    expect(messageTexts(x.request(-1), "user")).toEqual(
      expect.arrayContaining([
        expect.stringContaining("QUESTION-1"),
        expect.stringContaining("QUESTION-1-AGAIN"),
      ]),
    );
    expect(x.orchestrator.runtimeStats()).toEqual({ runtimes: 1, loadedThreads: 1 });
  });
});
