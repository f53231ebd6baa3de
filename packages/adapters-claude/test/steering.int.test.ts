import { join } from "node:path";
import type { RuntimeEvent } from "@skein/domain/provider";
import {
  anthropicAssistantTexts,
  anthropicBashReply,
  anthropicSlowTextReply,
  anthropicTextReply,
  anthropicUserTexts,
} from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { collect, completed, useAdapterHarness, itemsOf } from "./support/adapter-harness.ts";

const openHarness = useAdapterHarness();

const texts = (events: RuntimeEvent[]) =>
  itemsOf(events, "assistant_message").map((i) => i.fields.text);

describe("ClaudeProviderSession: steering (R1)", () => {
  it("a steer sent while Claude is answering gets its own answer, and the turn ends on it", async () => {
    const h = await openHarness();
    h.server.enqueue(
      anthropicSlowTextReply("first answer, streamed slowly", 20),
      anthropicTextReply("answer to the steer"),
      anthropicTextReply("next turn"),
    );
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const turn = h.session.startTurn(nativeThreadRef, { text: "talk" }, { settings: h.settings });
    const events: RuntimeEvent[] = [];
    for await (const event of turn.events) {
      events.push(event);
      if (
        event.type === "item.delta" &&
        events.filter((e) => e.type === "item.delta").length === 1
      ) {
        await h.session.steerTurn(nativeThreadRef, null, "STEER: say something else");
      }
    }
    const done = completed(events);
    expect(done).toMatchObject({
      status: "completed",
      nativeTurnRef: (await turn.started).nativeTurnRef,
    });
    expect(texts(events)).toEqual(["first answer, streamed slowly", "answer to the steer"]);
    // The steer's answer comes before the turn ends, not after it.
    const steerReply = events.findIndex(
      (e) => e.type === "item.completed" && e.fields.text === "answer to the steer",
    );
    expect(steerReply).toBeLessThan(events.indexOf(done));
    const requests = h.server.conversationRequests();
    expect(requests).toHaveLength(2);
    expect(anthropicUserTexts(requests[1]!).map((t) => t.trim())).toEqual([
      "talk",
      "STEER: say something else",
    ]);
    // Usage adds up both answers.
    const usage = events.filter((e) => e.type === "usage").at(-1);
    const first = events.find((e) => e.type === "usage");
    expect(usage?.type === "usage" && first?.type === "usage").toBe(true);
    if (usage?.type === "usage" && first?.type === "usage") {
      expect(usage.outputTokens).toBeGreaterThan(first.outputTokens);
    }

    // Steering an ended turn is refused; the next turn is on its own.
    await expect(h.session.steerTurn(nativeThreadRef, null, "late")).rejects.toThrow(
      /No running turn/,
    );
    const next = await collect(
      h.session.startTurn(nativeThreadRef, { text: "again" }, { settings: h.settings }),
    );
    expect(texts(next)).toEqual(["next turn"]);
    expect(h.session.spawnCount).toBe(1);
  });

  it("a steer sent during a tool call is folded into the next model request of the same turn", async () => {
    const h = await openHarness();
    const file = join(h.settings.cwd, "made.txt");
    h.server.enqueue(anthropicBashReply(`touch ${file}`), anthropicTextReply("done, steered"));
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const turn = h.session.startTurn(nativeThreadRef, { text: "work" }, { settings: h.settings });
    const events: RuntimeEvent[] = [];
    for await (const event of turn.events) {
      events.push(event);
      if (event.type === "request.opened") {
        await h.session.steerTurn(nativeThreadRef, null, "STEER: also mind the tests");
        await h.session.respondToRequest(event.requestRef, { decision: "accept" });
      }
    }
    expect(completed(events).status).toBe("completed");
    expect(texts(events)).toEqual(["done, steered"]);
    const requests = h.server.conversationRequests();
    expect(requests).toHaveLength(2);
    // Claude Code wraps a folded message ("The user sent a new message while you were working").
    expect(anthropicUserTexts(requests[1]!).at(-1)).toContain("STEER: also mind the tests");
  });

  it("an interrupt stops the turn and the steer queued behind it; the next turn works", async () => {
    const h = await openHarness();
    // Routed by prompt: whether the CLI sends the steer's request before the stop reaches it is
    // a race, and must not shift the replies of later requests.
    h.server.answerPrompt("talk", anthropicSlowTextReply("z".repeat(300), 20));
    h.server.answerPrompt("STEER: queued", anthropicSlowTextReply("y".repeat(300), 20));
    h.server.answerPrompt("go on", anthropicTextReply("after the stop"));
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const turn = h.session.startTurn(nativeThreadRef, { text: "talk" }, { settings: h.settings });
    const events: RuntimeEvent[] = [];
    let steered = false;
    for await (const event of turn.events) {
      events.push(event);
      if (event.type === "item.delta" && !steered) {
        steered = true;
        await h.session.steerTurn(nativeThreadRef, null, "STEER: queued");
        await h.session.interruptTurn(nativeThreadRef, null);
      }
    }
    expect(completed(events).status).toBe("interrupted");
    expect(texts(events).every((t) => !t?.startsWith("y".repeat(300)))).toBe(true);

    const next = await collect(
      h.session.startTurn(nativeThreadRef, { text: "go on" }, { settings: h.settings }),
    );
    expect(completed(next).status).toBe("completed");
    expect(texts(next)).toEqual(["after the stop"]);
    const last = h.server.conversationRequests().at(-1)!;
    expect(anthropicUserTexts(last).map((t) => t.trim())).toContain("go on");
    expect(anthropicAssistantTexts(last)).not.toContain("y".repeat(300));
  });
});
