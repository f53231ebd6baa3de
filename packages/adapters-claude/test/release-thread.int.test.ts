import { anthropicSlowTextReply, anthropicTextReply, anthropicUserTexts } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { collect, completed, useAdapterHarness } from "./support/adapter-harness.ts";

// Issue 35: two runtimes on one config dir (as two Skein instances share CLAUDE_CONFIG_DIR) take
// turns on one conversation. The CLI process of the runtime that ran the earlier turn holds its
// own history; unless it lets go, its next turn continues that older copy.

const openHarness = useAdapterHarness();

describe("ClaudeProviderSession.releaseThread", () => {
  it("lets go of one conversation: the next turn here resumes the transcript another runtime extended", async () => {
    const h = await openHarness();
    const other = await h.adapter.openSession({
      providerSessionId: "pss_other",
      cwd: h.settings.cwd,
    });
    try {
      const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
      h.server.enqueue(anthropicTextReply("one"));
      const run = (on: typeof other, text: string) =>
        collect(on.startTurn(ref, { text }, { settings: h!.settings }));
      expect(completed(await run(h.session, "first")).status).toBe("completed");

      expect(await h.session.releaseThread(ref)).toBe(true);
      expect(h.session.liveProcess(ref)).toBeNull();
      await other.resumeThread(ref, h.settings);
      h.server.enqueue(anthropicTextReply("two"));
      expect(completed(await run(other, "second")).status).toBe("completed");

      await h.session.resumeThread(ref, h.settings);
      h.server.enqueue(anthropicTextReply("three"));
      expect(completed(await run(h.session, "third")).status).toBe("completed");
      const last = h.server.conversationRequests().at(-1)!;
      expect(anthropicUserTexts(last)).toEqual(["first", "second", "third"]);
    } finally {
      await other.close();
    }
  });

  it("refuses while that conversation's turn runs, and the turn completes", async () => {
    const h = await openHarness();
    const { nativeThreadRef: ref } = await h.session.startThread(h.settings);
    h.server.enqueue(anthropicSlowTextReply("slowly", 300));
    const turn = h.session.startTurn(ref, { text: "slow" }, { settings: h.settings });
    await turn.started;
    expect(await h.session.releaseThread(ref)).toBe(false);
    expect(completed(await collect(turn)).status).toBe("completed");
  });
});
