import { responsesTextReply } from "@skein/fake-models";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

describe("system nodes from Codex notices (issue 33 item 5, real app-server)", () => {
  const harness = useCodexSkeinHarness();

  it("E5/E18: a deprecation notice Codex gives on thread start becomes one system node of the first run, with a weak (made-up) ref", async () => {
    // A deprecated flag in the person's config: Codex says so when the thread starts.
    const x = await harness({ features: { web_search_request: true } });
    x.server.enqueue(responsesTextReply("first answer"), responsesTextReply("second answer"));
    const threadId = await x.createThread();
    const first = await x.run(threadId, "first");
    const second = await x.run(threadId, "second");
    expect(first.run.status).toBe("completed");
    expect(second.run.status).toBe("completed");

    const state = await x.thread(threadId);
    const system = [...state.nodes.values()].filter((n) => n.kind === "system");
    expect(system).toHaveLength(1);
    const [notice] = system;
    const rootNodeId = [...state.attempts.values()].find(
      (a) => a.runId === first.runId,
    )?.rootNodeId;
    expect(notice).toMatchObject({
      runId: first.runId,
      parentNodeId: rootNodeId,
      status: "completed",
      nativeRefStrength: "weak",
    });
    expect(notice?.summary).toMatch(/web_search_request.*deprecated/);
    expect(notice?.nativeItemRef).toMatch(/^notice:/);
    // B8: the node keeps where its frame is in the raw log (not the frame itself, S3).
    expect(notice?.rawFrames?.first).toBeTruthy();
    // A notice is not conversation: no turn item shows it.
    const items = [...state.turnItems.values()].map((e) => e.item);
    expect(items.some((i) => i.nodeId === notice?.id)).toBe(false);
    // The answers' own nodes carry Codex's item ids: strong.
    const answers = [...state.nodes.values()].filter((n) => n.kind === "assistant_message");
    expect(answers.length).toBe(2);
    for (const answer of answers) expect(answer.nativeRefStrength).toBe("strong");
  });
});
