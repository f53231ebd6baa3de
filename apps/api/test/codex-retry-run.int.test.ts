import {
  httpErrorReply,
  messageTexts,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { eventually, useCodexSkeinHarness } from "./support/codex-skein-harness.ts";
import { attemptsOf } from "./support/attempts-shown.ts";

const SLOW = 90_000;

const harness = useCodexSkeinHarness();

const count = (texts: string[], text: string) => texts.filter((t) => t === text).length;

describe("E4: retrying a run on the real codex app-server", () => {
  it(
    "E4: a run failed by a model HTTP 400 is retried: same run, attempts [initial, retry], the model gets the text once more with the history",
    async () => {
      const x = await harness({ attempts: { maxRetries: 0 } });
      x.server.enqueue(
        responsesTextReply("RETRY-FIRST-ANSWER"),
        httpErrorReply(400, "this request is refused"),
        responsesTextReply("RETRY-SECOND-ANSWER"),
      );
      const threadId = await x.createThread();
      const first = await x.run(threadId, "RETRY-ONE");
      expect(first.run.status).toBe("completed");
      const runId = await x.send(threadId, "RETRY-TWO");
      const failed = await x.waitForRunStatus(threadId, runId, ["failed"], 30_000);
      expect(failed.error).toBeTruthy();
      const requestsBefore = x.server.requests.length;
      const userTextsBefore = messageTexts(x.request(-1), "user");

      await x.orchestrator.retryRun({ threadId, runId });
      const retried = await x.waitForRunStatus(threadId, runId, ["completed", "failed"], 30_000);
      expect([retried.status, retried.error]).toEqual(["completed", null]);
      expect(await attemptsOf(x, threadId, runId)).toEqual([
        [1, "initial", "failed"],
        [2, "retry", "completed"],
      ]);
      // Same provider thread, continued natively: no handoff, no second thread/start.
      expect(retried.providerThreadId).toBe(first.run.providerThreadId);
      expect(retried.contextHandoffId).toBeNull();
      expect(x.sent("thread/start")).toHaveLength(1);

      expect(x.server.requests.length).toBe(requestsBefore + 1);
      const user = messageTexts(x.request(-1), "user");
      expect(count(user, "RETRY-TWO")).toBe(count(userTextsBefore, "RETRY-TWO") + 1);
      expect(user.at(-1)).toBe("RETRY-TWO");
      expect(user).toContain("RETRY-ONE");
      expect(messageTexts(x.request(-1), "assistant")).toContain("RETRY-FIRST-ANSWER");
      const state = await x.thread(threadId);
      const answers = [...state.turnItems.values()].flatMap((e) =>
        e.item.type === "assistant_message" && e.item.runId === runId ? [e.item.text] : [],
      );
      expect(answers).toEqual(["RETRY-SECOND-ANSWER"]);
    },
    SLOW,
  );

  it(
    "E4: a run interrupted by a Skein restart is retried on the new server: thread/resume of the same provider thread, the text sent again",
    async () => {
      const x = await harness();
      x.server.enqueue(
        responsesTextReply("KEPT-ANSWER"),
        responsesSlowTextReply(["never ", "gets ", "to ", "the ", "end ", "of ", "this "], 500),
        responsesTextReply("RESUMED-ANSWER"),
      );
      const threadId = await x.createThread();
      const first = await x.run(threadId, "KEPT-ONE");
      const runId = await x.send(threadId, "CUT-BY-RESTART");
      await x.server.waitForRequests(2);
      await eventually(async () =>
        expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("running"),
      );
      await x.restart();
      const cut = await x.waitForRunStatus(threadId, runId, ["interrupted", "failed"], 30_000);
      expect(cut.status).toBe("interrupted");

      await x.orchestrator.retryRun({ threadId, runId });
      const retried = await x.waitForRunStatus(threadId, runId, ["completed", "failed"], 30_000);
      expect([retried.status, retried.error]).toEqual(["completed", null]);
      expect(await attemptsOf(x, threadId, runId)).toEqual([
        [1, "initial", "interrupted"],
        [2, "retry", "completed"],
      ]);
      expect(retried.providerThreadId).toBe(first.run.providerThreadId);
      expect(retried.contextHandoffId).toBeNull();
      const ref = (await x.thread(threadId)).providerThreads.get(
        retried.providerThreadId!,
      )?.nativeThreadRef;
      const resumes = x.sent("thread/resume");
      expect(resumes).toHaveLength(1);
      expect(resumes[0]?.payload).toMatchObject({ params: { threadId: ref } });
      const user = messageTexts(x.request(-1), "user");
      expect(user.at(-1)).toBe("CUT-BY-RESTART");
      expect(user).toContain("KEPT-ONE");
      expect(messageTexts(x.request(-1), "assistant")).toContain("KEPT-ANSWER");
    },
    SLOW,
  );
});
