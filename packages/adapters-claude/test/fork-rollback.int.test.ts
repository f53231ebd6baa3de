import { afterEach, describe, expect, it } from "vitest";
import {
  anthropicAssistantTexts,
  anthropicTextReply,
  anthropicUserTexts,
} from "@skein/fake-models";
import type { ClaudeSession } from "../src/claude-session.ts";
import { createHarness, type Harness, runTurn } from "./support/harness.ts";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.dispose();
  harness = undefined;
});

/** A two-turn conversation; returns the session and turn 1's native ref. */
async function twoTurns(h: Harness): Promise<{ session: ClaudeSession; turnOneRef: string }> {
  h.server.enqueue(anthropicTextReply("answer one"), anthropicTextReply("answer two"));
  const session = h.runtime.startSession(h.settings);
  const one = await runTurn(session.send("turn one"));
  await runTurn(session.send("turn two"));
  expect(one.outcome.lastAssistantUuid).not.toBeNull();
  return { session, turnOneRef: one.outcome.lastAssistantUuid! };
}

describe("native fork and rollback", () => {
  it("forks at turn 1: the fork's request holds turn 1 only; the source is unchanged", async () => {
    harness = await createHarness();
    const { session: source, turnOneRef } = await twoTurns(harness);

    harness.server.enqueue(anthropicTextReply("fork answer"));
    const fork = harness.runtime.forkSession(source.sessionId, turnOneRef, harness.settings);
    expect(fork.sessionId).not.toBe(source.sessionId);
    const forked = await runTurn(fork.send("fork message"));
    expect(forked.outcome.status).toBe("completed");
    expect(forked.outcome.result?.session_id).toBe(fork.sessionId);

    const forkRequest = harness.server.conversationRequests().at(-1)!;
    expect(anthropicUserTexts(forkRequest)).toEqual(["turn one", "fork message"]);
    expect(anthropicAssistantTexts(forkRequest)).toEqual(["answer one"]);

    // The source still has both turns (its live process and, after a restart, its transcript).
    harness.server.enqueue(anthropicTextReply("source answer"));
    await source.close();
    await runTurn(harness.runtime.session(source.sessionId, harness.settings).send("source again"));
    const sourceRequest = harness.server.conversationRequests().at(-1)!;
    expect(anthropicUserTexts(sourceRequest)).toEqual(["turn one", "turn two", "source again"]);
  });

  it("rolls back in place: the next request drops turn 2, and so does a later resume", async () => {
    harness = await createHarness();
    const { session, turnOneRef } = await twoTurns(harness);

    harness.server.enqueue(anthropicTextReply("after rollback"), anthropicTextReply("later"));
    const rewound = await harness.runtime.rewindSession(
      session.sessionId,
      turnOneRef,
      harness.settings,
    );
    expect(rewound.sessionId).toBe(session.sessionId);
    expect(session.state).toBe("closed");
    expect((await runTurn(rewound.send("instead of two"))).outcome.status).toBe("completed");
    const afterRewind = harness.server.conversationRequests().at(-1)!;
    expect(anthropicUserTexts(afterRewind)).toEqual(["turn one", "instead of two"]);

    await rewound.close();
    await runTurn(harness.runtime.session(session.sessionId, harness.settings).send("resumed"));
    const resumed = harness.server.conversationRequests().at(-1)!;
    expect(anthropicUserTexts(resumed)).toEqual(["turn one", "instead of two", "resumed"]);
    expect(anthropicAssistantTexts(resumed)).toEqual(["answer one", "after rollback"]);
  });
});
