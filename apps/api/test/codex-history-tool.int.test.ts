import {
  functionCallOutputs,
  functionCallReply,
  messageTexts,
  responsesTextReply,
} from "@skein/fake-models";
import { estimateTokens, HISTORY_ANSWER_TOKENS } from "@skein/transfer";
import { describe, expect, it } from "vitest";
import { useCodexSkeinHarness } from "./support/codex-skein-harness.ts";

const SLOW = 120_000;

describe("skein_history on real Codex (issue 25)", () => {
  const harness = useCodexSkeinHarness();

  it(
    "B13: after a switch to Codex, the model searches the handed-over runs; out-of-coverage and bad calls are tool errors and the run completes",
    async () => {
      const x = await harness();
      x.claude.enqueue([{ type: "text", text: "Noted, Falcon it is." }]);
      x.claude.enqueue([{ type: "text", text: "I will keep that in mind." }]);
      x.server.enqueue(
        functionCallReply("skein_history", { op: "search", query: "falcon queue" }, "call_s"),
        functionCallReply("skein_history", { op: "read", run: 3 }, "call_r"),
        functionCallReply("skein_history", { op: "drop_tables" }, "call_b"),
        responsesTextReply("done reading"),
      );
      const threadId = await x.createThread();
      await x.run(threadId, "We decided to use falcon-q for the job queue.", "claude");
      await x.run(threadId, "Remember to rotate the signing keys before launch.", "claude");
      const { run } = await x.run(threadId, "Carry on with the queue work.", "codex");
      expect(run.status).toBe("completed");

      // The handoff Codex received says the tool exists.
      const handoff = messageTexts(x.request(0), "user").find((t) =>
        t.startsWith("# Context handoff"),
      );
      expect(handoff).toContain("skein_history");
      expect(handoff).not.toMatch(/\b(?:thr|run|ctx|pth)_[0-9A-Za-z]{6,}/);

      const outputs = functionCallOutputs(x.request(3));
      expect(outputs.map((o) => o.callId)).toEqual(["call_s", "call_r", "call_b"]);
      const [search, read, bad] = outputs.map((o) => o.output);
      expect(search).toContain("run 1 · the person: We decided to use falcon-q for the job queue.");
      expect(estimateTokens(search ?? "")).toBeLessThanOrEqual(HISTORY_ANSWER_TOKENS);
      expect(read).toContain("run 3 is not covered by this handoff (covered: runs 1–2)");
      expect(bad).toContain("op must be one of search, read, files");

      const state = await x.thread(threadId);
      const calls = [...state.turnItems.values()]
        .map((e) => e.item)
        .filter((i) => i.type === "dynamic_tool" && i.toolName === "skein_history");
      expect(calls).toHaveLength(3);
      expect(calls.map((c) => c.status)).toEqual(["completed", "failed", "failed"]);
    },
    SLOW,
  );
});
