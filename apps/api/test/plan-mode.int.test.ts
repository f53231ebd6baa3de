import {
  anthropicExitPlanModeReply,
  anthropicTextReply,
  anthropicUserTexts,
  collaborationModes,
  messageTexts,
  proposedPlanReply,
  responsesTextReply,
} from "@skein/fake-models";
import type { PlanArtifact, ThreadId, ThreadState } from "@skein/domain";
import { describe, expect, it } from "vitest";
import {
  type ClaudeSkeinHarness,
  useClaudeSkeinHarness,
  eventually,
} from "./support/claude-skein-harness.ts";

const harness = useClaudeSkeinHarness();

const CLAUDE_PLAN = "# Greeting\n\n1. Write hello.txt saying hi\n2. Check it";
const CODEX_PLAN = "# Farewell\n\n1. Write bye.txt\n2. Check it";

function proposedPlans(state: ThreadState): PlanArtifact[] {
  return [...state.plans.values()].filter((plan) => plan.kind === "proposed_plan");
}

/** The store's head once every ended run of the thread has its checkpoint (appended just after). */
async function settledHead(harness: ClaudeSkeinHarness, threadId: ThreadId): Promise<number> {
  await eventually(async () => {
    const state = await harness.thread(threadId);
    for (const run of state.runs.values()) expect(run.checkpointId).not.toBeNull();
  });
  return harness.store.headSequence();
}

describe("B5 plan mode through the orchestrator, real Codex and Claude on fake models", () => {
  it("B5: a plan Claude proposes in plan mode is implemented by Codex, the plan in its handoff and message", async () => {
    const h = await harness({ codex: "real" });
    h.anthropic.enqueue(anthropicExitPlanModeReply(CLAUDE_PLAN), anthropicTextReply("Waiting."));
    h.openai!.enqueue(responsesTextReply("Implemented the greeting."));
    const threadId = await h.createThread({ provider: "claude" });

    const planned = await h.send(threadId, "plan a greeting file", {
      interactionMode: "plan",
      effort: "high",
    });
    expect(planned.state.runs.get(planned.runId)).toMatchObject({
      status: "completed",
      interactionMode: "plan",
      effort: "high",
    });
    const [plan] = proposedPlans(planned.state);
    expect(plan).toMatchObject({ status: "active", markdown: CLAUDE_PLAN, runId: planned.runId });
    // What Claude's model was sent: the plan-mode reminder and the effort.
    const claudeRequest = h.claudeRequests()[0]!;
    expect(JSON.stringify((claudeRequest.body as { messages: unknown }).messages)).toContain(
      "Plan mode is active",
    );
    expect(claudeRequest.body).toMatchObject({ output_config: { effort: "high" } });

    const implemented = await h.send(threadId, "go ahead", {
      provider: "codex",
      sourcePlanRef: { threadId, planId: plan!.id },
    });
    const run = implemented.state.runs.get(implemented.runId);
    expect(run).toMatchObject({ status: "completed", interactionMode: "default", effort: null });
    expect(implemented.state.plans.get(plan!.id)?.status).toBe("accepted");
    const planItem = [...implemented.state.turnItems.values()].find(
      (entry) => entry.item.type === "plan",
    )?.item;
    expect(planItem).toMatchObject({ planStatus: "accepted" });

    // What Codex's model was sent: no plan mode (a new Codex thread runs in its default mode,
    // so none is set), the handoff of Claude's run (with its plan), then the accepted plan in
    // full ahead of the person's words.
    const codexRequest = h.openai!.requests.at(-1)!;
    expect(collaborationModes(codexRequest)).toEqual([]);
    const texts = messageTexts(codexRequest, "user");
    const handoff = implemented.state.handoffs.get(run!.contextHandoffId!)!;
    expect(texts).toContain(handoff.summaryText);
    expect(handoff.summaryText).toContain("Write hello.txt saying hi");
    expect(texts.at(-1)).toContain(`<accepted_plan>\n${CLAUDE_PLAN}\n</accepted_plan>`);
    expect(texts.at(-1)?.endsWith("go ahead")).toBe(true);
    // The thread shows the message as typed.
    expect(implemented.state.messages.get(run!.userMessageId)?.text).toBe("go ahead");

    // An accepted plan is not implemented twice; nothing is appended or sent.
    const before = await settledHead(h, threadId);
    const requests = h.openai!.requests.length;
    await expect(
      h.orchestrator.sendMessage({
        threadId,
        text: "again",
        sourcePlanRef: { threadId, planId: plan!.id },
      }),
    ).rejects.toMatchObject({ code: "precondition_failed" });
    expect(await settledHead(h, threadId)).toBe(before);
    expect(h.openai!.requests).toHaveLength(requests);
  }, 120_000);

  it("B5: a plan Codex proposes (thread in plan mode, low effort) is implemented by Claude; a newer plan supersedes it", async () => {
    const h = await harness({ codex: "real" });
    h.openai!.enqueue(proposedPlanReply(CODEX_PLAN), proposedPlanReply(`${CODEX_PLAN}\n3. Tidy`));
    h.anthropic.enqueue(anthropicTextReply("Implemented the farewell."));
    const threadId = await h.createThread({ provider: "codex" });
    await h.orchestrator.updateSettings({ threadId, interactionMode: "plan", effort: "low" });

    const first = await h.send(threadId, "plan a farewell file");
    expect(first.state.runs.get(first.runId)).toMatchObject({
      status: "completed",
      interactionMode: "plan",
      effort: "low",
    });
    const firstRequest = h.openai!.requests[0]!;
    expect(collaborationModes(firstRequest).at(-1)).toMatch(/^# Plan Mode/);
    expect(firstRequest.reasoning).toEqual({ effort: "low" });
    const [older] = proposedPlans(first.state);
    expect(older).toMatchObject({ status: "active", markdown: `${CODEX_PLAN}\n` });

    const second = await h.send(threadId, "add tidying");
    const plans = proposedPlans(second.state);
    expect(plans.map((p) => p.status)).toEqual(["superseded", "active"]);
    await expect(
      h.orchestrator.sendMessage({
        threadId,
        text: "old one",
        provider: "claude",
        sourcePlanRef: { threadId, planId: older!.id },
      }),
    ).rejects.toMatchObject({ code: "precondition_failed" });

    const newer = plans[1]!;
    const implemented = await h.send(threadId, "do it", {
      provider: "claude",
      sourcePlanRef: { threadId, planId: newer.id },
    });
    expect(implemented.state.runs.get(implemented.runId)).toMatchObject({
      status: "completed",
      provider: "claude",
      interactionMode: "default",
    });
    expect(implemented.state.plans.get(newer.id)?.status).toBe("accepted");
    const claudeRequest = h.claudeRequests().at(-1)!;
    expect(JSON.stringify((claudeRequest.body as { messages: unknown }).messages)).not.toContain(
      "Plan mode is active",
    );
    expect(anthropicUserTexts(claudeRequest).at(-1)).toContain("3. Tidy\n</accepted_plan>");
  }, 120_000);

  it("an unknown model or effort is refused with the provider's list before any provider work", async () => {
    const h = await harness({ codex: "real" });
    const threadId = await h.createThread({ provider: "codex" });
    const before = await settledHead(h, threadId);
    const unknown = await h.orchestrator
      .sendMessage({ threadId, text: "hi", model: "gpt-nope" })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(unknown).toMatchObject({ name: "UnknownModelError", code: "validation" });
    const offered = (unknown as { models: string[] }).models;
    expect(offered.length).toBeGreaterThan(0);
    expect((unknown as Error).message).toContain(offered[0]);
    const models = await h.orchestrator.providerModels("codex");
    const known = models[0]!;
    const effort = await h.orchestrator
      .sendMessage({ threadId, text: "hi", model: known.id, effort: "galactic" })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(effort).toMatchObject({ name: "UnsupportedEffortError", efforts: known.efforts });
    await expect(
      h.orchestrator.updateSettings({ threadId, model: "gpt-nope" }),
    ).rejects.toMatchObject({ name: "UnknownModelError" });
    await expect(
      h.orchestrator.createThread({ projectId: h.projectId, provider: "codex", model: "gpt-nope" }),
    ).rejects.toMatchObject({ name: "UnknownModelError" });
    expect(await settledHead(h, threadId)).toBe(before);
    expect(h.openai!.requests).toHaveLength(0);

    // A model and effort the provider offers are taken and reach the model request.
    h.openai!.enqueue(responsesTextReply("fine"));
    const effortLevel = known.efforts[0]!;
    const sent = await h.send(threadId, "hi", { model: known.id, effort: effortLevel });
    expect(sent.state.runs.get(sent.runId)).toMatchObject({
      status: "completed",
      model: known.id,
      effort: effortLevel,
    });
    expect(h.openai!.requests[0]).toMatchObject({
      model: known.id,
      reasoning: { effort: effortLevel },
    });
  }, 120_000);
});
