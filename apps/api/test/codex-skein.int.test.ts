import { existsSync } from "node:fs";
import { join } from "node:path";
import { type ThreadId, threadStreamId, type TurnItem } from "@skein/domain";
import {
  conversationText,
  execCommandReply,
  functionCallOutputs,
  httpErrorReply,
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

async function items(x: CodexSkeinHarness, threadId: ThreadId): Promise<TurnItem[]> {
  const state = await x.thread(threadId);
  return [...state.turnItems.values()].sort((a, b) => a.sortKey - b.sortKey).map((e) => e.item);
}

/** Waits until Skein shows part of the assistant's reply while the run is still going. */
async function waitForStreamedText(x: CodexSkeinHarness, threadId: ThreadId) {
  return eventually(async () => {
    const state = await x.thread(threadId);
    const text = [...state.turnItems.values()]
      .map((e) => e.item)
      .find((i) => i.type === "assistant_message" && i.status === "running" && i.text !== "");
    if (text?.type !== "assistant_message") throw new Error("nothing streamed yet");
    expect(state.activeRunId).not.toBeNull();
    return text.text;
  }, 20_000);
}

describe("Codex through Skein (real binary, fake model)", () => {
  it("a turn streams text and completes; the second message's model request carries the first", async () => {
    const x = await harness();
    x.server.enqueue(
      responsesSlowTextReply(["Alpha ", "beta ", "gamma ", "delta."], 150),
      responsesTextReply("second answer"),
    );
    const threadId = await x.createThread();
    const firstRun = await x.send(threadId, "first question");
    const partial = await waitForStreamedText(x, threadId);
    expect("Alpha beta gamma delta.".startsWith(partial)).toBe(true);
    await x.orchestrator.waitForRun(firstRun);
    const first = (await x.thread(threadId)).runs.get(firstRun);
    expect(first?.status).toBe("completed");
    const answer = (await items(x, threadId)).find((i) => i.type === "assistant_message");
    expect(answer).toMatchObject({ status: "completed", text: "Alpha beta gamma delta." });

    const second = await x.run(threadId, "second question");
    expect(second.run.status).toBe("completed");
    expect(x.server.requests).toHaveLength(2);
    const history = x.request(1);
    expect(messageTexts(history, "user")).toEqual(
      expect.arrayContaining(["first question", "second question"]),
    );
    expect(messageTexts(history, "assistant")).toContain("Alpha beta gamma delta.");
    // One provider thread served both runs: history came from Codex, not a handoff.
    const state = await x.thread(threadId);
    expect(state.providerThreads.size).toBe(1);
    expect(state.handoffs.size).toBe(0);
  });

  it("C1/T3: native fork at turn 1 of 2 sends turn 1 and not turn 2; the transfer goes resolved_native → consumed", async () => {
    const x = await harness();
    x.server.enqueue(responsesTextReply("ANSWER-ONE"), responsesTextReply("ANSWER-TWO"));
    const source = await x.createThread();
    const one = await x.run(source, "TURN-ONE");
    await x.run(source, "TURN-TWO");
    const fork = await x.orchestrator.forkThread({
      threadId: source,
      sourcePoint: { type: "run", runId: one.runId },
    });
    x.server.enqueue(responsesTextReply("FORK-ANSWER"));
    const onFork = await x.run(fork.threadId, "FORK-MESSAGE", "codex");
    expect(onFork.run.status).toBe("completed");

    const text = conversationText(x.request(-1));
    expect(text).toContain("TURN-ONE");
    expect(text).toContain("ANSWER-ONE");
    expect(text).toContain("FORK-MESSAGE");
    expect(text).not.toContain("TURN-TWO");
    expect(text).not.toContain("ANSWER-TWO");

    const sourceState = await x.thread(source);
    const turnOne = [...sourceState.providerTurns.values()].find(
      (t) => t.runAttemptId && sourceState.attempts.get(t.runAttemptId)?.runId === one.runId,
    );
    const [forkCall] = x.sent("thread/fork");
    expect(forkCall?.payload).toMatchObject({ params: { lastTurnId: turnOne?.nativeTurnRef } });
    const transferEvents = (await x.store.readStream(threadStreamId(fork.threadId)))
      .filter((e) => e.type.startsWith("ContextTransfer"))
      .map((e) =>
        e.type === "ContextTransferResolved" ? (e.data as { status: string }).status : e.type,
      );
    expect(transferEvents).toEqual([
      "ContextTransferCreated",
      "resolved_native",
      "ContextTransferConsumed",
    ]);
    const transfer = (await x.thread(fork.threadId)).transfers.get(fork.transferId);
    expect(transfer).toMatchObject({ status: "consumed", consumedByRunId: onFork.runId });
    expect(transfer?.resolution?.strategy).toBe("native_fork");
  });

  it("E15: approval accept runs the command and its output is in turnItems; decline does not run it; both turns complete", async () => {
    const x = await harness();
    x.server.enqueue(
      execCommandReply("echo ran > accepted.txt && echo APPROVED-OUTPUT"),
      responsesTextReply("command finished"),
      execCommandReply("echo ran > declined.txt"),
      responsesTextReply("not running it"),
    );
    const threadId = await x.createThread({ runtimeMode: "approval-required" });

    for (const decision of ["accept", "decline"] as const) {
      const runId = await x.send(threadId, `please run it (${decision})`);
      const request = await eventually(async () => {
        const state = await x.thread(threadId);
        const pending = [...state.requests.values()].find(
          (r) => r.status === "pending" && r.runId === runId,
        );
        if (!pending) throw new Error("no pending request yet");
        return pending;
      }, 20_000);
      expect(request.kind).toBe("command");
      await x.orchestrator.respondToRequest({ requestId: request.id, decision });
      await x.orchestrator.waitForRun(runId);
      expect((await x.thread(threadId)).runs.get(runId)?.status).toBe("completed");
    }

    const commands = (await items(x, threadId)).filter((i) => i.type === "command_execution");
    expect(commands).toHaveLength(2);
    const [accepted, declined] = commands;
    expect(accepted).toMatchObject({ status: "completed", exitCode: 0 });
    expect(accepted?.type === "command_execution" && accepted.output).toContain("APPROVED-OUTPUT");
    expect(declined?.status).toBe("declined");
    expect(existsSync(join(x.workspace, "accepted.txt"))).toBe(true);
    expect(existsSync(join(x.workspace, "declined.txt"))).toBe(false);
    const afterDecline = functionCallOutputs(x.request(-1));
    expect(afterDecline.at(-1)?.output).toContain("rejected by user");
    // Each turn made two model requests (10 in / 5 out each, the fake's default usage); the
    // provider turn records the turn's total, not just its last response.
    const usage = [...(await x.thread(threadId)).providerTurns.values()].map((t) => t.usage);
    expect(usage).toEqual([
      expect.objectContaining({ inputTokens: 20, outputTokens: 10 }),
      expect.objectContaining({ inputTokens: 20, outputTokens: 10 }),
    ]);
  });

  it("interrupt mid-stream ends the run interrupted long before the reply would have ended", async () => {
    const x = await harness();
    x.server.enqueue(
      responsesSlowTextReply(
        [
          "slow ",
          "words ",
          "keep ",
          "coming ",
          "for ",
          "ever ",
          "and ",
          "ever ",
          "more ",
          "of ",
          "them ",
          "now ",
        ],
        400,
      ),
    );
    const threadId = await x.createThread();
    const runId = await x.send(threadId, "talk slowly");
    const partial = await waitForStreamedText(x, threadId);
    await x.orchestrator.interrupt({ threadId });
    await x.waitForRunStatus(threadId, runId, ["interrupted"]);
    const shown = await items(x, threadId);
    expect(shown.filter((i) => i.status === "running")).toEqual([]);
    // The cut-off reply is closed as interrupted and keeps the text that had streamed.
    const reply = shown.find((i) => i.type === "assistant_message");
    expect(reply?.status).toBe("interrupted");
    expect(reply?.type === "assistant_message" && reply.text.startsWith(partial)).toBe(true);
    // Bound by events, not the clock: the run ended before the model's reply did.
    expect(reply?.type === "assistant_message" && reply.text.includes("them now")).toBe(false);
  });

  it("steer adds input to the running turn (native turn/steer, same run and attempt)", async () => {
    const x = await harness();
    x.server.enqueue(
      responsesSlowTextReply(["first ", "part ", "of ", "the ", "answer "], 250),
      responsesTextReply("answer after steer"),
    );
    const threadId = await x.createThread();
    const runId = await x.send(threadId, "start talking");
    await waitForStreamedText(x, threadId);
    await x.orchestrator.steer({ threadId, text: "STEER-MARKER extra input" });
    await x.orchestrator.waitForRun(runId);
    const state = await x.thread(threadId);
    expect(state.runs.get(runId)?.status).toBe("completed");
    expect([...state.attempts.values()].filter((a) => a.runId === runId)).toHaveLength(1);
    expect(x.sent("turn/steer")).toHaveLength(1);
    expect(x.sent("turn/start")).toHaveLength(1);
    expect(conversationText(x.request(-1))).toContain("STEER-MARKER extra input");
    // The steer shows in the run as a user message between the cut-off and the final answer;
    // the cut-off reply keeps what had streamed of it.
    const shown = (await items(x, threadId)).flatMap((i) =>
      i.type === "user_message" || i.type === "assistant_message" ? [[i.type, i.status]] : [],
    );
    expect(shown).toEqual([
      ["user_message", "completed"],
      ["assistant_message", "interrupted"],
      ["user_message", "completed"],
      ["assistant_message", "completed"],
    ]);
    const replies = (await items(x, threadId)).filter((i) => i.type === "assistant_message");
    expect(replies[0]?.type === "assistant_message" && replies[0].text).toMatch(/^first /);
  });

  it("B2: a model HTTP 500 gets a retry attempt of the same run on the same runtime; the run completes with the next answer", async () => {
    const x = await harness({ attempts: { baseDelayMs: 50 } });
    x.server.enqueue(httpErrorReply(500, "upstream exploded"), responsesTextReply("RECOVERED"));
    const threadId = await x.createThread();
    const { runId, run } = await x.run(threadId, "this will fail once");
    expect(run.status).toBe("completed");
    const state = await x.thread(threadId);
    const attempts = [...state.attempts.values()].filter((a) => a.runId === runId);
    expect(attempts.map((a) => [a.reason, a.status])).toEqual([
      ["initial", "superseded"],
      ["retry", "completed"],
    ]);
    expect(x.codexSessions).toHaveLength(1);
    const answer = (await items(x, threadId)).filter((i) => i.type === "assistant_message");
    expect(answer.at(-1)).toMatchObject({ text: "RECOVERED", runId });
    expect(messageTexts(x.request(-1), "user")).toContain("this will fail once");
  });

  it("model HTTP 500 with new attempts off fails the run with the error text; the next message on the thread works", async () => {
    const x = await harness({ attempts: { maxRetries: 0 } });
    x.server.enqueue(httpErrorReply(500, "upstream exploded"), responsesTextReply("RECOVERED"));
    const threadId = await x.createThread();
    const failed = await x.run(threadId, "this will fail");
    expect(failed.run.status).toBe("failed");
    // Codex replaces a 5xx body with its own text; that text is what the run must carry.
    expect(failed.run.error).toMatch(/high demand|internal|500/i);
    const next = await x.run(threadId, "try again");
    expect(next.run.status).toBe("completed");
    const answer = (await items(x, threadId)).filter((i) => i.type === "assistant_message");
    expect(answer.at(-1)).toMatchObject({ text: "RECOVERED", runId: next.runId });
    expect(messageTexts(x.request(-1), "user")).toContain("this will fail");
  });
});
