import { describe, expect, it } from "vitest";
import {
  anthropicTextReply,
  anthropicUserTexts,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts } from "./support/ui.ts";
import { newThread, runsCompleted } from "./support/threads.ts";

const PROVIDER_SUMMARY = [
  "## Goal",
  "Ship the job queue (run 1)",
  "## Decisions in force",
  "- WRITER-FALCON-Q for the job queue (run 1)",
  "## Open tasks",
  "- rotate the signing keys (run 1)",
].join("\n");

/**
 * Issue 25 item 3 in the browser: in a project whose handoffs the source agent writes, the
 * composer's review (and its Regenerate) shows the agent's own handoff, not Skein's, and that
 * reviewed text is what the target receives. Real Claude writes it (a side turn on a fork of its
 * thread) and real Codex receives it, both against the fake model servers.
 */
describe.runIf(chromiumAvailable)("Composer review follows the project's writer (Chromium)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  const summaryAsks = () =>
    e2e.stack.providers.anthropic
      .conversationRequests()
      .filter((r) =>
        anthropicUserTexts(r).join("\n").includes("Write a handoff of this conversation"),
      ).length;

  it("reviews and regenerates Claude's own handoff in a 'provider' project, and Codex gets it", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Writer project",
      projectSettings: { handoffWriter: "provider" },
      title: "Written by the agent",
      provider: "claude",
    });
    stack.providers.anthropic.enqueue(anthropicTextReply("Falcon noted."));
    await client.thread.sendMessage.mutate({
      threadId,
      text: "We'll use WRITER-FALCON-Q for the job queue.",
    });
    await runsCompleted(client, threadId);

    await page.goto(`${stack.web.url}/threads/${threadId}`);
    const composer = page.getByRole("form", { name: "Composer" });
    await composer.getByLabel("Provider", { exact: true }).selectOption("codex");
    stack.providers.anthropic.enqueue(anthropicTextReply(PROVIDER_SUMMARY));
    await composer.getByLabel("Message").fill("continue on Codex");
    await composer.getByLabel("Message").press("Enter");

    const review = page.getByRole("region", { name: "Review the handoff before sending" });
    const handoff = review.getByLabel("Handoff text to send");
    await expect.poll(() => handoff.inputValue(), { timeout: 60_000 }).toContain(PROVIDER_SUMMARY);
    await expect
      .poll(() => review.locator(".handoff-authorship").textContent())
      .toContain("Written by Claude");
    expect(summaryAsks()).toBe(1);

    // Regenerate asks Claude again (it used to rebuild Skein's text whatever the project said).
    await handoff.fill("scratch");
    stack.providers.anthropic.enqueue(anthropicTextReply(`${PROVIDER_SUMMARY}\n- REGENERATED`));
    await review.getByRole("button", { name: "Regenerate" }).click();
    await expect.poll(() => handoff.inputValue(), { timeout: 60_000 }).toContain("REGENERATED");
    expect(summaryAsks()).toBe(2);
    await saveScreenshot(page, "composer-review-provider-writer");

    stack.providers.openai.enqueue(responsesTextReply("Codex took over."));
    const reviewed = await handoff.inputValue();
    await review.getByRole("button", { name: "Send with this handoff" }).click();
    await expect
      .poll(() => assistantTexts(page), { timeout: 90_000 })
      .toContain("Codex took over.");
    // What was reviewed is what Codex got; Claude was not asked a third time.
    const request = stack.providers.openai.requests.find((r) =>
      JSON.stringify(r).includes("continue on Codex"),
    );
    expect(JSON.stringify(request)).toContain(JSON.stringify(reviewed).slice(1, -1));
    expect(summaryAsks()).toBe(2);
  }, 600_000);
});
