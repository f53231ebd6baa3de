import { anthropicTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { type ClaudeSkeinHarness, useClaudeSkeinHarness } from "./support/claude-skein-harness.ts";

const harness = useClaudeSkeinHarness();

type Append = { streamId: string; types: string[] };

/** Every append (one transaction each) the store takes from here on, in order. */
function recordAppends(harness: ClaudeSkeinHarness): Append[] {
  const appends: Append[] = [];
  const store = harness.store;
  const append = store.append.bind(store);
  store.append = (streamId, expected, events, options) => {
    appends.push({ streamId, types: events.map((e) => e.type) });
    return append(streamId, expected, events, options);
  };
  return appends;
}

describe("run start appends", () => {
  it("a provider switch (Codex run, then Claude) records its start in one thread append", async () => {
    const h = await harness({ codex: "scripted" });
    h.scriptedCodex!.enqueue([{ type: "text", text: "codex answer" }]);
    h.anthropic.enqueue(anthropicTextReply("claude answer"));
    const threadId = await h.createThread({ provider: "codex" });
    const first = await h.send(threadId, "message one", { provider: "codex" });
    expect(first.state.runs.get(first.runId)?.status).toBe("completed");

    const appends = recordAppends(h);
    const second = await h.send(threadId, "message two", { provider: "claude" });
    const run = second.state.runs.get(second.runId)!;
    expect(run.status).toBe("completed");
    expect(run.contextHandoffId).not.toBeNull();

    const queued = appends.findIndex((a) => a.types.includes("RunQueued"));
    const turn = appends.findIndex((a) => a.types.includes("ProviderTurnStarted"));
    expect(queued).toBeGreaterThanOrEqual(0);
    expect(turn).toBeGreaterThan(queued);
    const between = appends.slice(queued + 1, turn);
    const onThread = between.filter((a) => a.streamId === appends[queued]!.streamId);
    // Printed for the before/after figures.
    console.info(
      `provider-switch start: ${between.length} appends before the first runtime event ` +
        `(${onThread.length} on the thread): ${JSON.stringify(between.map((a) => a.types))}`,
    );
    // The Claude runtime is opened (and recorded on its session stream: opened, then ready);
    // everything the start records on the thread is one transaction. Before the run-start
    // workflow this was 9 appends, 7 of them on the thread, one per recorded fact.
    expect(onThread).toHaveLength(1);
    expect(onThread[0]!.types).toEqual(
      expect.arrayContaining([
        "ProviderThreadRecorded",
        "ContextTransferCreated",
        "HandoffRecorded",
        "RunStarted",
      ]),
    );
    expect(between.length).toBeLessThanOrEqual(3);
  });
});
