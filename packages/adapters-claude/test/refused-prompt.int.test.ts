import {
  anthropicAssistantTexts,
  anthropicBashReply,
  anthropicErrorReply,
  anthropicRequestText,
  anthropicSlowTextReply,
  anthropicTextReply,
  anthropicToolResults,
  anthropicUserTexts,
} from "@skein/fake-models";
import type { RuntimeEvent } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { ClaudeProviderSession } from "../src/claude-provider-session.ts";
import { createMemoryRawEventSink } from "@skein/adapter-kit/testing";
import {
  type AdapterHarness,
  collect,
  completed,
  useAdapterHarness,
} from "./support/adapter-harness.ts";

const openHarness = useAdapterHarness();

const refuse = () =>
  anthropicErrorReply(400, "prompt is poison", {
    errorType: "invalid_request_error",
    shouldRetry: false,
  });

async function turn(x: AdapterHarness, session: ClaudeProviderSession, ref: string, text: string) {
  return completed(await collect(session.startTurn(ref, { text }, { settings: x.settings })));
}

const FIRST = "the first answer, long enough to steer while it streams";

const users = (x: AdapterHarness) =>
  anthropicUserTexts(x.server.conversationRequests().at(-1)!).map((t) => t.trim());

describe("ClaudeProviderSession: a prompt the model always refuses", () => {
  it("is cut from the conversation: the next message goes on its own, also after a restart", async () => {
    const h = await openHarness();
    h.server.answerPrompt("POISON", refuse());
    h.server.enqueue(anthropicTextReply("first ok"), anthropicTextReply("recovered"));
    const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
    expect((await turn(h, h.session, ref, "hello")).status).toBe("completed");
    const failed = await turn(h, h.session, ref, "POISON here");
    expect(failed).toMatchObject({ status: "failed", error: expect.stringContaining("poison") });

    const next = await turn(h, h.session, ref, "after poison");
    expect(next.status).toBe("completed");
    expect(users(h)).toEqual(["hello", "after poison"]);
    expect(anthropicAssistantTexts(h.server.conversationRequests().at(-1)!)).toEqual(["first ok"]);

    // Twice in a row, and found again from the transcript by a session that never saw it fail.
    await turn(h, h.session, ref, "POISON once");
    await turn(h, h.session, ref, "POISON twice");
    await h.session.close();
    const reopened = await h.adapter.openSession({
      providerSessionId: "pss_reopened",
      cwd: h.settings.cwd,
      rawLog: createMemoryRawEventSink(),
    });
    if (!(reopened instanceof ClaudeProviderSession)) throw new Error("unexpected session type");
    try {
      await reopened.resumeThread(ref, h.settings);
      h.server.enqueue(anthropicTextReply("back"));
      expect((await turn(h, reopened, ref, "after a restart")).status).toBe("completed");
      const request = h.server.conversationRequests().at(-1)!;
      expect(users(h)).toEqual(["hello", "after poison", "after a restart"]);
      expect(anthropicRequestText(request)).not.toContain("POISON");
      // The native history is the conversation the model sees.
      const history = await reopened.readHistory(ref);
      expect(history.map((t) => t.userText)).toEqual(["hello", "after poison", "after a restart"]);
    } finally {
      await reopened.close();
    }
  });

  it("is left out of a fork of the conversation's latest state", async () => {
    const h = await openHarness();
    h.server.answerPrompt("POISON", refuse());
    h.server.enqueue(anthropicTextReply("first ok"), anthropicTextReply("on the fork"));
    const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
    await turn(h, h.session, ref, "hello");
    expect((await turn(h, h.session, ref, "POISON here")).status).toBe("failed");
    const fork = await h.session.forkThread({ nativeThreadRef: ref, at: null }, h.settings);
    expect((await turn(h, h.session, fork.nativeThreadRef, "forked")).status).toBe("completed");
    expect(users(h)).toEqual(["hello", "forked"]);
  });

  it("a refused steer is cut too: the answer before it stays, the next message goes on its own", async () => {
    const h = await openHarness();
    h.server.answerPrompt("POISON", refuse());
    h.server.enqueue(anthropicSlowTextReply(FIRST, 30), anthropicTextReply("after the steer"));
    const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
    const events = h.session.startTurn(ref, { text: "talk" }, { settings: h.settings }).events;
    let steered = false;
    const seen: RuntimeEvent[] = [];
    for await (const event of events) {
      seen.push(event);
      if (event.type === "item.delta" && !steered) {
        steered = true;
        await h.session.steerTurn(ref, null, "POISON steer");
      }
    }
    expect(completed(seen).status).toBe("failed");
    expect((await turn(h, h.session, ref, "next")).status).toBe("completed");
    expect(users(h)).toEqual(["talk", "next"]);
    expect(anthropicAssistantTexts(h.server.conversationRequests().at(-1)!)).toEqual([FIRST]);
  });

  it("as the first message: the conversation starts afresh under the same id", async () => {
    const h = await openHarness();
    h.server.answerPrompt("POISON", refuse());
    h.server.enqueue(anthropicTextReply("fresh"), anthropicTextReply("remembers"));
    const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
    expect((await turn(h, h.session, ref, "POISON first")).status).toBe("failed");

    expect((await turn(h, h.session, ref, "second")).status).toBe("completed");
    expect(users(h)).toEqual(["second"]);
    expect(h.server.conversationRequests().at(-1)?.headers["x-claude-code-session-id"]).toBe(ref);
    expect((await turn(h, h.session, ref, "third")).status).toBe("completed");
    expect(users(h)).toEqual(["second", "third"]);
    expect(anthropicAssistantTexts(h.server.conversationRequests().at(-1)!)).toEqual(["fresh"]);
  });

  it("a failure after Claude answered keeps what it did: the next message follows its tool result", async () => {
    const h = await openHarness();
    h.server.enqueue(
      anthropicBashReply("echo did-the-work", { id: "toolu_work" }),
      anthropicErrorReply(500, "model on fire", { shouldRetry: false }),
      anthropicTextReply("fine again"),
    );
    const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
    expect((await turn(h, h.session, ref, "do the work")).status).toBe("failed");
    expect((await turn(h, h.session, ref, "again")).status).toBe("completed");
    const request = h.server.conversationRequests().at(-1)!;
    expect(users(h)).toEqual(["do the work", "again"]);
    expect(anthropicToolResults(request)).toEqual([
      { toolUseId: "toolu_work", text: "did-the-work", isError: false },
    ]);
    expect(h.session.spawnCount).toBe(1);
  });
});
