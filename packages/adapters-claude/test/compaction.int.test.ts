import { anthropicRequestText, anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { collect, completed, useAdapterHarness, itemsOf } from "./support/adapter-harness.ts";

const openHarness = useAdapterHarness();

describe("Claude adapter: compaction", () => {
  it("P6: a compact turn sends /compact; the model is asked to summarize; the boundary is a compaction item", async () => {
    const h = await openHarness({
      script: [
        anthropicTextReply("FIRST-ANSWER"),
        anthropicTextReply("<analysis>short</analysis><summary>SUMMARY-OF-IT</summary>"),
        anthropicTextReply("after compaction"),
      ],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    await collect(
      h.session.startTurn(nativeThreadRef, { text: "FIRST-Q" }, { settings: h.settings }),
    );
    const before = h.server.requests.length;
    const events = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "/compact", compact: true },
        { settings: h.settings },
      ),
    );
    expect(completed(events).status).toBe("completed");
    const started = events.filter((e) => e.type === "item.started" && e.kind === "compaction");
    expect(started).toHaveLength(1);
    const itemRef = started[0]?.type === "item.started" ? started[0].itemRef : null;
    expect(itemsOf(events, "compaction")).toMatchObject([{ itemRef, status: "completed" }]);

    // The model was asked for a summary of the conversation so far.
    const compactRequests = h.server.requests
      .slice(before)
      .filter((r) => anthropicRequestText(r).includes("<summary>"));
    expect(compactRequests).toHaveLength(1);
    const asked = anthropicRequestText(compactRequests[0]!);
    expect(asked).toContain("FIRST-Q");
    expect(asked).toContain("FIRST-ANSWER");

    // The next turn goes on from the summary, not the original exchange.
    await collect(
      h.session.startTurn(nativeThreadRef, { text: "NEXT-Q" }, { settings: h.settings }),
    );
    const next = h.server.conversationRequests().at(-1)!;
    expect(anthropicRequestText(next)).toContain("SUMMARY-OF-IT");
    expect(anthropicUserTexts(next)).not.toContain("FIRST-Q");
  });
});
