import { describe, expect, test } from "vitest";
import { AdapterHarness, collect, completion, ofType } from "./support/adapter-harness.ts";
import {
  collaborationModes,
  messageTexts,
  proposedPlanReply,
  type ResponsesRequestBody,
  responsesTextReply,
} from "@skein/fake-models";

const PLAN = "# Add a greeting\n\n1. Write hello.txt\n2. Test it";

function request(h: AdapterHarness, index: number): ResponsesRequestBody {
  const body = h.server.requests[index];
  if (!body) throw new Error(`no model request ${index}`);
  return body;
}

describe("codex plan mode and effort (real binary)", () => {
  test("B5: a plan-mode turn carries Codex's plan instructions and effort; its <proposed_plan> becomes a proposed_plan", async () => {
    const h = await AdapterHarness.forTest([
      proposedPlanReply(PLAN),
      responsesTextReply("Implemented."),
    ]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    const events = await collect(
      session.startTurn(
        nativeThreadRef,
        { text: "plan a greeting", interactionMode: "plan", effort: "high" },
        { settings: h.settings() },
      ),
    );
    expect(completion(events)).toMatchObject({ status: "completed" });
    expect(ofType(events, "plan.updated")).toEqual([
      expect.objectContaining({ kind: "proposed_plan", markdown: `${PLAN}\n` }),
    ]);
    // What the model received: the plan-mode instructions and the effort asked for.
    const planned = request(h, 0);
    expect(collaborationModes(planned).at(-1)).toMatch(/^# Plan Mode/);
    expect(planned.reasoning).toEqual({ effort: "high" });

    // The next turn in default mode: Codex says plan mode is over, at its default effort.
    const next = await collect(
      session.startTurn(
        nativeThreadRef,
        { text: "implement it", interactionMode: "default" },
        { settings: h.settings() },
      ),
    );
    expect(completion(next)).toMatchObject({ status: "completed" });
    expect(ofType(next, "plan.updated")).toEqual([]);
    const implemented = request(h, 1);
    expect(collaborationModes(implemented).at(-1)).toMatch(/Default mode/);
    expect(implemented.reasoning).not.toEqual({ effort: "high" });
    expect(messageTexts(implemented, "user").at(-1)).toBe("implement it");
  }, 90_000);

  test("effort alone is sent on turn/start and reaches the model request", async () => {
    const h = await AdapterHarness.forTest([responsesTextReply("quick")]);
    const session = await h.openSession();
    const { nativeThreadRef } = await session.startThread(h.settings());
    await collect(
      session.startTurn(nativeThreadRef, { text: "hi", effort: "low" }, { settings: h.settings() }),
    );
    expect(h.sent("turn/start")[0]?.payload).toMatchObject({ params: { effort: "low" } });
    expect(request(h, 0).reasoning).toEqual({ effort: "low" });
    expect(collaborationModes(request(h, 0))).toEqual([]);
  }, 90_000);
});
