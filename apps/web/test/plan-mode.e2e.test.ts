import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  anthropicTextReply,
  anthropicUserTexts,
  collaborationModes,
  messageTexts,
  proposedPlanReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import type { Stack } from "./support/stack.ts";
import { assistantTexts, sendMessage, text } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

const PLAN = "# Farewell\n\n1. Write bye.txt\n2. Check it";

/**
 * B5 in the browser: the plan toggle and the effort picker send a plan-mode message to the real
 * Codex (fake model), its proposed plan shows as a card, and "Implement" runs it on Claude.
 */
describe.runIf(chromiumAvailable)("plan mode (Chromium, real API, real Codex and Claude)", () => {
  let stack: Stack;
  let page: Page;

  useE2eStack({ timeoutMs: 60_000 }, (started) => {
    ({ stack, page } = started);
  });

  it("B5: plan toggle + effort → proposed plan card → Implement on Claude, which gets the plan; plan mode is off after it", async () => {
    const { client, threadId } = await newThread(stack, {
      project: "Plans",
      title: "Plan thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(proposedPlanReply(PLAN, "Here is my plan."));
    stack.providers.anthropic.enqueue(anthropicTextReply("IMPLEMENTED-BY-CLAUDE"));
    await openThread(page, stack, threadId);

    await page.getByLabel("Plan mode").check();
    // The effort levels come from Codex's own catalog (provider.models).
    const effort = page.getByLabel("Effort");
    await effort.locator('option[value="high"]').waitFor({ state: "attached" });
    await effort.selectOption("high");
    await sendMessage(page, "plan a farewell file");

    const card = page.locator(".plan-proposed_plan");
    await card.waitFor();
    await expect.poll(() => text(card), { timeout: 60_000 }).toContain("Write bye.txt");
    // What Codex's model was sent: plan mode, at the effort picked.
    const planned = stack.providers.openai.requests[0]!;
    expect(collaborationModes(planned).at(-1)).toMatch(/^# Plan Mode/);
    expect(planned.reasoning).toEqual({ effort: "high" });

    await card.getByLabel("Implement with").selectOption("claude");
    await card.getByRole("button", { name: "Implement", exact: true }).click();
    await expect
      .poll(() => assistantTexts(page), { timeout: 90_000 })
      .toContain("IMPLEMENTED-BY-CLAUDE");
    await expect.poll(() => text(card), { timeout: 30_000 }).toMatch(/accepted/i);
    expect(await card.getByRole("button", { name: "Implement", exact: true }).count()).toBe(0);
    await saveScreenshot(page, "plan-mode-implemented");

    // Claude got the plan: ahead of the message, and in the handoff of Codex's run.
    const claudeRequest = stack.providers.anthropic.conversationRequests().at(-1)!;
    const texts = anthropicUserTexts(claudeRequest);
    expect(texts.at(-1)).toContain("<accepted_plan>\n# Farewell");
    expect(texts.some((sent) => sent.includes("plan a farewell file"))).toBe(true);
    expect(messageTexts(planned, "user").at(-1)).toBe("plan a farewell file");

    // Implementing ended the planning: the toggle is off and the next message acts.
    await expect.poll(() => page.getByLabel("Plan mode").isChecked()).toBe(false);
    stack.providers.anthropic.enqueue(anthropicTextReply("ACTED-AFTER-PLAN"));
    await sendMessage(page, "now add a second line");
    await expect
      .poll(() => assistantTexts(page), { timeout: 90_000 })
      .toContain("ACTED-AFTER-PLAN");
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.runs.map((run) => [run.provider, run.interactionMode])).toEqual([
      ["codex", "plan"],
      ["claude", "default"],
      ["claude", "default"],
    ]);
  });
});
