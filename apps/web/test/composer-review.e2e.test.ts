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

/**
 * Issue 17 item 5 in the browser: a provider switch stops at "review handoff before sending" by
 * default (preview, regenerate, edit), a bring-back does when asked, and the provider — real
 * Claude against a fake model — receives exactly the reviewed text.
 */
describe.runIf(chromiumAvailable)("Composer handoff review (Chromium, real providers)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  const lastClaudeTexts = () => {
    const request = e2e.stack.providers.anthropic
      .conversationRequests()
      .filter((r) => r.agent === "main")
      .at(-1);
    return request ? anthropicUserTexts(request).join("\n") : "";
  };

  it("reviews, regenerates and edits a provider switch's and a bring-back's handoff before sending", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Composer project",
      title: "Switching thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(responsesTextReply("Codex answered."));
    await client.thread.sendMessage.mutate({ threadId, text: "ORIGINAL-CODEX-QUESTION" });
    await runsCompleted(client, threadId);

    await page.goto(`${stack.web.url}/threads/${threadId}`);
    const composer = page.getByRole("form", { name: "Composer" });
    await composer.getByLabel("Provider", { exact: true }).selectOption("claude");
    const toggle = composer.getByRole("checkbox", { name: "Review handoff before sending" });
    expect(await toggle.isChecked()).toBe(true); // on by default for a provider switch
    await composer.getByLabel("Message").fill("continue on Claude");
    await composer.getByLabel("Message").press("Enter");

    const review = page.getByRole("region", { name: "Review the handoff before sending" });
    const handoff = review.getByLabel("Handoff text to send");
    await expect
      .poll(() => handoff.inputValue(), { timeout: 30_000 })
      .toContain("ORIGINAL-CODEX-QUESTION");
    const generated = await handoff.inputValue();
    // Nothing is sent yet: the message stays in the box and no run was queued.
    expect(await composer.getByLabel("Message").inputValue()).toBe("continue on Claude");
    expect((await client.thread.detail.query({ threadId })).runs).toHaveLength(1);
    await saveScreenshot(page, "composer-review-switch");

    await handoff.fill("scratch");
    await review.getByRole("button", { name: "Regenerate" }).click();
    await expect.poll(() => handoff.inputValue()).toBe(generated);
    const edited = `${generated}\n\nREVIEWED-SWITCH-NOTE: keep the API stable.`;
    await handoff.fill(edited);
    stack.providers.anthropic.enqueue(anthropicTextReply("Claude took over."));
    await review.getByRole("button", { name: "Send with this handoff" }).click();
    await expect
      .poll(() => assistantTexts(page), { timeout: 90_000 })
      .toContain("Claude took over.");
    expect(lastClaudeTexts()).toContain("REVIEWED-SWITCH-NOTE: keep the API stable.");
    expect(await review.count()).toBe(0);

    // Bring-back: the review is on by default for every transfer kind (B10), and works the same way.
    const { threadId: forkId } = await client.thread.fork.mutate({
      threadId,
      title: "Side fork",
      isolatedWorkspace: false,
    });
    stack.providers.anthropic.enqueue(anthropicTextReply("Fork work done."));
    await client.thread.sendMessage.mutate({
      threadId: forkId,
      text: "FORK-ONLY-WORK",
      provider: "claude",
    });
    await runsCompleted(client, forkId);
    await page.reload();
    await page.getByLabel("Bring back from fork").selectOption(forkId);
    expect(await toggle.isChecked()).toBe(true);
    await composer.getByLabel("Message").fill("bring the fork back");
    await composer.getByLabel("Message").press("Enter");
    await expect.poll(() => handoff.inputValue(), { timeout: 30_000 }).toContain("FORK-ONLY-WORK");
    await saveScreenshot(page, "composer-review-bring-back");
    await handoff.fill("REVIEWED-BRING-BACK: only the fork's tests matter.");
    stack.providers.anthropic.enqueue(anthropicTextReply("Merged as reviewed."));
    await review.getByRole("button", { name: "Send with this handoff" }).click();
    await expect
      .poll(() => assistantTexts(page), { timeout: 90_000 })
      .toContain("Merged as reviewed.");
    expect(lastClaudeTexts()).toContain("REVIEWED-BRING-BACK: only the fork's tests matter.");
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.transfers.map((t) => t.type).sort()).toEqual(["merge_back", "provider_handoff"]);

    // The setting turns the default off, in this browser, across reloads.
    await composer.getByLabel("Provider", { exact: true }).selectOption("codex");
    await composer.getByRole("checkbox", { name: "always, by default" }).uncheck();
    expect(await toggle.isChecked()).toBe(false);
    await page.reload();
    await composer.getByLabel("Provider", { exact: true }).selectOption("codex");
    expect(await toggle.isChecked()).toBe(false);
    expect(await composer.getByRole("checkbox", { name: "always, by default" }).isChecked()).toBe(
      false,
    );
  }, 600_000);
});
