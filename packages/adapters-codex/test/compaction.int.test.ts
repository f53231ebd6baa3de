import { conversationText, responsesTextReply } from "@skein/fake-models";
import { describe, expect, test } from "vitest";
import { AdapterHarness, collect, completion, ofType } from "./support/adapter-harness.ts";

describe("codex adapter: compaction (real binary)", () => {
  test("P6: a compact turn asks Codex to compact; the model sees the request; a compaction item ends the turn", async () => {
    const h = await AdapterHarness.forTest([
      responsesTextReply("FIRST-ANSWER"),
      responsesTextReply("SUMMARY-OF-THE-CONVERSATION"),
      responsesTextReply("after compaction"),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    await collect(
      session.startTurn(nativeThreadRef, { text: "FIRST-Q" }, { settings: h.settings() }),
    );
    const handle = session.startTurn(
      nativeThreadRef,
      { text: "/compact", compact: true },
      { settings: h.settings() },
    );
    const events = await collect(handle);
    const { nativeTurnRef } = await handle.started;
    expect(nativeTurnRef).toBeTruthy();
    expect(completion(events)).toMatchObject({ status: "completed", nativeTurnRef });
    const compactions = ofType(events, "item.completed").filter((e) => e.kind === "compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]?.status).toBe("completed");
    // The model was asked to compact the conversation so far, which it holds.
    expect(h.server.requests).toHaveLength(2);
    const compactRequest = conversationText(h.server.requests[1] ?? { input: [] });
    expect(compactRequest).toContain("FIRST-Q");
    expect(compactRequest).toContain("FIRST-ANSWER");

    // The next turn goes on from the summary.
    await collect(
      session.startTurn(nativeThreadRef, { text: "NEXT-Q" }, { settings: h.settings() }),
    );
    expect(conversationText(h.server.requests[2] ?? { input: [] })).toContain(
      "SUMMARY-OF-THE-CONVERSATION",
    );
  });
});
