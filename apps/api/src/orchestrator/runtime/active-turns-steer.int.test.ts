import { isDomainError } from "@skein/domain";
import { describe, expect, it, vi } from "vitest";
import { useHarness, eventually } from "../../../test/support/orchestrator-harness.ts";

const harness = useHarness();

describe("R1: a native steer the provider refuses", () => {
  it("is a CONFLICT saying what to do, records nothing, and the run goes on", async () => {
    const h = await harness();
    h.codex.enqueue([
      { type: "wait", ms: 300 },
      { type: "text", text: "done" },
    ]);
    const { threadId } = await h.orchestrator.createThread({ projectId: h.projectId });
    const { runId } = await h.orchestrator.sendMessage({ threadId, text: "start" });
    await eventually(async () =>
      expect((await h.thread(threadId)).runs.get(runId)?.status).toBe("running"),
    );
    // What a provider answers when its turn ended just before the steer reached it.
    const session = h.codex.sessions[0]!;
    vi.spyOn(session, "steerTurn").mockRejectedValueOnce(new Error("no running turn on t1"));
    const refused = await h.orchestrator.steer({ threadId, text: "too late" }).catch((e) => e);
    expect(isDomainError(refused) && refused.code).toBe("conflict");
    expect((refused as Error).message).toMatch(/did not take the steer.*send it as a new message/);

    await h.orchestrator.waitForRun(runId);
    const state = await h.thread(threadId);
    expect(state.runs.get(runId)?.status).toBe("completed");
    expect([...state.messages.values()].map((m) => m.text)).not.toContain("too late");
  });
});
