import { afterEach, describe, expect, it } from "vitest";
import {
  anthropicAssistantTexts,
  anthropicErrorReply,
  anthropicSlowTextReply,
  anthropicTextReply,
  anthropicUserTexts,
} from "@skein/fake-models";
import {
  assistantText,
  createHarness,
  type Harness,
  runTurn,
  streamedText,
} from "./support/harness.ts";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

describe("ClaudeSession against the real Claude Code binary", () => {
  it("streams a text turn as partial messages and completes it", async () => {
    harness = await createHarness({ script: [anthropicTextReply("Hello from the fake model")] });
    const session = harness.runtime.startSession(harness.settings);
    const { messages, outcome } = await runTurn(session.send("say hello"));

    expect(outcome.status).toBe("completed");
    expect(outcome.error).toBeNull();
    expect(outcome.result?.session_id).toBe(session.sessionId);
    expect(streamedText(messages)).toBe("Hello from the fake model");
    expect(assistantText(messages)).toBe("Hello from the fake model");
    expect(outcome.lastAssistantUuid).toMatch(/^[0-9a-f-]{36}$/);

    // E18: every SDK message in and out is in the raw log, and envelopes point at their frame.
    const frames = harness.rawLog.frames;
    expect(frames.find((f) => f.direction === "outgoing" && f.method === "user")).toBeDefined();
    expect(frames.some((f) => f.method === "system/init")).toBe(true);
    const last = messages.at(-1);
    expect(frames.find((f) => f.rawEventId === last?.rawEventId)?.method).toBe("result/success");
  });

  it("sends a second message through the same process, with the first turn in its request", async () => {
    harness = await createHarness({
      script: [anthropicTextReply("first answer"), anthropicTextReply("second answer")],
    });
    const session = harness.runtime.startSession(harness.settings);
    expect((await runTurn(session.send("message one"))).outcome.status).toBe("completed");
    const second = await runTurn(session.send("message two"));

    expect(second.outcome.status).toBe("completed");
    expect(assistantText(second.messages)).toBe("second answer");
    const requests = harness.server.conversationRequests();
    expect(requests).toHaveLength(2);
    expect(anthropicUserTexts(requests[1]!)).toEqual(["message one", "message two"]);
    expect(harness.runtime.spawnCount).toBe(1);
  });

  it("interrupt during slow streaming ends the turn before the reply does; the next message works", async () => {
    harness = await createHarness({
      script: [anthropicSlowTextReply("x".repeat(400), 25), anthropicTextReply("after interrupt")],
    });
    const session = harness.runtime.startSession(harness.settings);
    const turn = session.send("stream slowly");
    let asked = false;
    let streamed = 0;
    for await (const { message } of turn.messages) {
      if (message.type === "stream_event" && message.event.type === "content_block_delta") {
        const delta = message.event.delta;
        if (delta.type === "text_delta") streamed += delta.text.length;
        if (!asked) {
          asked = true;
          await session.interrupt();
        }
      }
    }
    const outcome = await turn.outcome;
    expect(outcome.status).toBe("interrupted");
    // Bound by events, not the clock: the turn ended before the model's 400-character reply did.
    expect(streamed).toBeLessThan(400);

    const next = await runTurn(session.send("still there?"));
    expect(next.outcome.status).toBe("completed");
    expect(assistantText(next.messages)).toBe("after interrupt");
    expect(harness.runtime.spawnCount).toBe(1);
  });

  it("an HTTP 500 fails the turn with the API's message; the next message works", async () => {
    harness = await createHarness({
      script: [
        anthropicErrorReply(500, "fake upstream exploded", { shouldRetry: false }),
        anthropicTextReply("recovered"),
      ],
    });
    const session = harness.runtime.startSession(harness.settings);
    const failed = await runTurn(session.send("trigger the error"));
    expect(failed.outcome.status).toBe("failed");
    expect(failed.outcome.error).toContain("fake upstream exploded");
    expect(failed.outcome.result?.is_error).toBe(true);

    const next = await runTurn(
      harness.runtime.session(session.sessionId, harness.settings).send("again"),
    );
    expect(next.outcome.status).toBe("completed");
    expect(assistantText(next.messages)).toBe("recovered");
  });

  it("detects the process being killed mid-turn; resuming keeps the history", async () => {
    harness = await createHarness({
      script: [anthropicTextReply("turn one"), anthropicSlowTextReply("y".repeat(400), 25)],
    });
    const session = harness.runtime.startSession(harness.settings);
    await runTurn(session.send("first"));
    const turn = session.send("second, to be killed");
    for await (const { message } of turn.messages) {
      if (message.type === "stream_event" && message.event.type === "content_block_delta") {
        session.process?.kill("SIGKILL");
        break;
      }
    }
    const outcome = await turn.outcome;
    expect(outcome.status).toBe("failed");
    expect(outcome.error).toMatch(/SIGKILL|terminated|exited/);
    expect((await session.ended).reason).toBe("died");
    expect(session.state).toBe("dead");
    expect(() => session.send("too late")).toThrow(/died/);

    harness.server.enqueue(anthropicTextReply("resumed"));
    const resumed = harness.runtime.session(session.sessionId, harness.settings);
    expect(resumed).not.toBe(session);
    const next = await runTurn(resumed.send("third"));
    expect(next.outcome.status).toBe("completed");
    expect(harness.runtime.spawnCount).toBe(2);
    const last = harness.server.conversationRequests().at(-1)!;
    // The killed turn's own prompt may or may not have reached the transcript before SIGKILL.
    const userTexts = anthropicUserTexts(last);
    expect(userTexts[0]).toBe("first");
    expect(userTexts.at(-1)).toBe("third");
    expect(anthropicAssistantTexts(last)[0]).toBe("turn one");
  });
});
