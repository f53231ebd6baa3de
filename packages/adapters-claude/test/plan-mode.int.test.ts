import { describe, expect, it } from "vitest";
import { PLAN_RECORDED } from "../src/claude-provider-session.ts";
import { collect, completed, useAdapterHarness, itemsOf } from "./support/adapter-harness.ts";
import {
  type AnthropicRecordedRequest,
  anthropicExitPlanModeReply,
  anthropicTextReply,
  anthropicToolResults,
} from "@skein/fake-models";

const openHarness = useAdapterHarness();

const PLAN = "# Add a greeting\n\n1. Write hello.txt\n2. Test it";

type Body = { messages: unknown; output_config?: { effort?: string } };
const body = (request: AnthropicRecordedRequest | undefined) => request?.body as Body;
/** The system reminders Claude Code put into the conversation it sent. */
const reminders = (request: AnthropicRecordedRequest | undefined) =>
  JSON.stringify(body(request).messages);

describe("claude plan mode and effort (real Claude Agent SDK)", () => {
  it("B5: plan mode reaches the model; ExitPlanMode becomes a proposed_plan, declined so Claude stops", async () => {
    const h = await openHarness({
      script: [
        anthropicExitPlanModeReply(PLAN),
        anthropicTextReply("Waiting for you."),
        anthropicTextReply("Implemented."),
      ],
    });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const events = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "plan it", interactionMode: "plan", effort: "high" },
        { settings: h.settings },
      ),
    );
    expect(completed(events).status).toBe("completed");
    const plans = events.filter((e) => e.type === "plan.updated");
    expect(plans).toEqual([expect.objectContaining({ kind: "proposed_plan", markdown: PLAN })]);
    // No approval is put to the person and the tool call is no item of its own.
    expect(events.some((e) => e.type === "request.opened")).toBe(false);
    expect(itemsOf(events, "dynamic_tool")).toEqual([]);

    const [planned, afterPlan] = h.server.conversationRequests();
    expect(reminders(planned)).toContain("Plan mode is active");
    expect(body(planned).output_config?.effort).toBe("high");
    expect(anthropicToolResults(afterPlan!)).toEqual([
      expect.objectContaining({ text: PLAN_RECORDED, isError: true }),
    ]);

    // The next message in default mode leaves plan mode, at the model's default effort.
    const next = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "do it", interactionMode: "default" },
        { settings: h.settings },
      ),
    );
    expect(completed(next).status).toBe("completed");
    const implemented = h.server.conversationRequests().at(-1);
    expect(reminders(implemented)).toContain("You have exited plan mode");
    expect(body(implemented).output_config?.effort).not.toBe("high");
  }, 90_000);

  it("B5: plan mode on a full-access thread still stops at the plan and returns to bypass after", async () => {
    const h = await openHarness({
      script: [
        anthropicExitPlanModeReply(PLAN),
        anthropicTextReply("Waiting for you."),
        anthropicTextReply("Implemented."),
      ],
    });
    const settings = { ...h.settings, runtimeMode: "full-access" as const };
    const { nativeThreadRef } = await h.session.startThread(settings);
    const events = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "plan it", interactionMode: "plan" },
        { settings },
      ),
    );
    expect(completed(events).status).toBe("completed");
    expect(events.filter((e) => e.type === "plan.updated")).toHaveLength(1);
    const afterPlan = h.server.conversationRequests()[1];
    expect(anthropicToolResults(afterPlan!)).toEqual([
      expect.objectContaining({ text: PLAN_RECORDED, isError: true }),
    ]);
    const next = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "do it", interactionMode: "default" },
        { settings },
      ),
    );
    expect(completed(next).status).toBe("completed");
    expect(reminders(h.server.conversationRequests().at(-1))).toContain("exited plan mode");
  }, 90_000);

  it("an effort Claude does not have fails the turn in words before any model request", async () => {
    const h = await openHarness({ script: [anthropicTextReply("never")] });
    const { nativeThreadRef } = await h.session.startThread(h.settings);
    const events = await collect(
      h.session.startTurn(
        nativeThreadRef,
        { text: "hi", effort: "minimal" },
        { settings: h.settings },
      ),
    );
    expect(completed(events)).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/minimal/),
    });
    expect(h.server.conversationRequests()).toEqual([]);
  }, 90_000);
});
