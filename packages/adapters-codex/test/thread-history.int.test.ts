import { describe, expect, test } from "vitest";
import { CodexRpcError } from "../src/rpc/errors.ts";
import { CodexHarness } from "./support/codex-harness.ts";
import {
  conversationText,
  type ResponsesRequestBody,
  responsesSlowTextReply,
  responsesTextReply,
} from "@skein/fake-models";

function lastRequest(h: CodexHarness): ResponsesRequestBody {
  const body = h.server.requests.at(-1);
  if (!body) throw new Error("no model request recorded");
  return body;
}

/** A paginated thread with two completed turns whose texts are unique markers. */
async function twoTurnThread(h: CodexHarness, params: { historyMode?: "legacy" } = {}) {
  const thread = await h.startThread(params);
  const one = await h.runTurn(thread.id, "TURN-ONE question");
  const two = await h.runTurn(thread.id, "TURN-TWO question");
  expect([one.turn.status, two.turn.status]).toEqual(["completed", "completed"]);
  return { thread, one: one.turn, two: two.turn };
}

describe("thread history operations (real binary)", () => {
  test("thread/fork with lastTurnId keeps that turn (inclusive) and drops later ones", async () => {
    const harness = await CodexHarness.forTest({
      script: [responsesTextReply("ANSWER-ONE"), responsesTextReply("ANSWER-TWO")],
    });
    const { thread, one } = await twoTurnThread(harness);

    const { thread: fork } = await harness.client.request("thread/fork", {
      threadId: thread.id,
      lastTurnId: one.id,
    });
    expect(fork.id).not.toBe(thread.id);
    expect(fork.forkedFromId).toBe(thread.id);
    expect(fork.turns.map((t) => t.id)).toEqual([one.id]);

    await harness.runTurn(fork.id, "FORK question");
    const sent = conversationText(lastRequest(harness));
    expect(sent).toContain("TURN-ONE question");
    expect(sent).toContain("ANSWER-ONE");
    expect(sent).toContain("FORK question");
    expect(sent).not.toContain("TURN-TWO");
    expect(sent).not.toContain("ANSWER-TWO");

    // The source thread is untouched by the fork.
    await harness.runTurn(thread.id, "SOURCE again");
    expect(conversationText(lastRequest(harness))).toContain("TURN-TWO question");
  });

  test("thread/revert with beforeTurnId removes that turn and later ones", async () => {
    const harness = await CodexHarness.forTest({
      script: [responsesTextReply("ANSWER-ONE"), responsesTextReply("ANSWER-TWO")],
    });
    const { thread, one, two } = await twoTurnThread(harness);

    const reverted = await harness.client.request("thread/revert", {
      threadId: thread.id,
      beforeTurnId: two.id,
    });
    expect(reverted.thread.id).toBe(thread.id);
    expect(reverted.thread.turns).toEqual([]);
    const listed = await harness.client.request("thread/turns/list", { threadId: thread.id });
    expect(listed.data.map((t) => t.id)).toEqual([one.id]);

    await harness.runTurn(thread.id, "AFTER-REVERT question");
    const sent = conversationText(lastRequest(harness));
    expect(sent).toContain("TURN-ONE question");
    expect(sent).toContain("AFTER-REVERT question");
    expect(sent).not.toContain("TURN-TWO");
    expect(sent).not.toContain("ANSWER-TWO");
  });

  test("legacy-history threads refuse thread/revert but still fork", async () => {
    const harness = await CodexHarness.forTest();
    const { thread, one, two } = await twoTurnThread(harness, { historyMode: "legacy" });
    expect(thread.historyMode).toBe("legacy");

    const read = await harness.client.request("thread/read", { threadId: thread.id });
    expect(read.thread.historyMode).toBe("legacy");

    const error = await harness.client
      .request("thread/revert", { threadId: thread.id, beforeTurnId: two.id })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CodexRpcError);
    expect((error as CodexRpcError).code).toBe(-32600);
    expect((error as CodexRpcError).message).toContain("only supports paginated threads");

    const { thread: fork } = await harness.client.request("thread/fork", {
      threadId: thread.id,
      lastTurnId: one.id,
    });
    expect(fork.historyMode).toBe("legacy");
    await harness.runTurn(fork.id, "LEGACY-FORK question");
    expect(conversationText(lastRequest(harness))).not.toContain("TURN-TWO");
  });

  test("after SIGKILL mid-turn, a new process resumes the thread with its history", async () => {
    const harness = await CodexHarness.forTest({
      script: [
        responsesTextReply("ANSWER-ONE"),
        responsesSlowTextReply(["never ", "finished ", "reply ", "here "], 300),
      ],
    });
    const thread = await harness.startThread();
    const one = await harness.runTurn(thread.id, "TURN-ONE question");
    const from = harness.log.size;
    const { turn: killed } = await harness.startTurn(thread.id, "KILLED question");
    await harness.log.waitFor((n) => n.method === "item/agentMessage/delta", { from });
    const oldClient = harness.client;
    oldClient.kill("SIGKILL");
    await oldClient.exited;

    await harness.restart();
    const resumed = await harness.client.request("thread/resume", { threadId: thread.id });
    expect(resumed.thread.id).toBe(thread.id);
    const statuses = resumed.thread.turns.map((t) => [t.id, t.status]);
    expect(statuses).toEqual([
      [one.turn.id, "completed"],
      [killed.id, "interrupted"],
    ]);

    const after = await harness.runTurn(thread.id, "AFTER-RESTART question");
    expect(after.turn.status).toBe("completed");
    const sent = conversationText(lastRequest(harness));
    expect(sent).toContain("TURN-ONE question");
    expect(sent).toContain("ANSWER-ONE");
    expect(sent).toContain("KILLED question");
    expect(sent).not.toContain("never finished");
  });
});
