import { describe, expect, it } from "vitest";
import { anthropicTextReply, anthropicUserTexts } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";
import { sendAndSeeReplies, answeredCodexThread } from "./support/threads.ts";

/** Skein's internal ids (context transfers, threads, runs) as they are spelled. */
const INTERNAL_ID = /\b(ctx|thr|run)_[A-Za-z0-9]/;

/**
 * B16 in the browser (issue 29 item 6): raw frames, ids and empty checkpoint rows are behind a
 * debug toggle that is off by default and remembered once on; the handoff a provider switch
 * sends (real Codex → real Claude) names no internal id, which the transfer keeps as data.
 */
describe.runIf(chromiumAvailable)("debug details (Chromium, real API, Codex and Claude)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B16: plumbing is hidden until the debug toggle shows it; a handoff's text carries no internal ids", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await answeredCodexThread(
      e2e,
      { project: "Plumbing", title: "Plain thread" },
      { message: "first question", answer: "CODEX-ANSWER" },
    );
    // The run's checkpoint (no file changed) is recorded, and is plumbing.
    await expect
      .poll(
        async () =>
          (await client.thread.detail.query({ threadId })).turnItems.filter(
            (item) => item.type === "checkpoint",
          ).length,
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);

    const toggle = page.getByRole("button", { name: "Debug details" });
    const conversation = page.locator(".conversation");
    const plumbing = async () => ({
      raw: await page.getByTestId("raw-frames").count(),
      ids: await page.locator(".copy-id").count(),
      checkpoints: await page.locator(".item-checkpoint").count(),
    });
    // Off by default: none of it, and no id in the text on screen.
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    expect(await plumbing()).toEqual({ raw: 0, ids: 0, checkpoints: 0 });
    expect(await text(page.locator("main"))).not.toMatch(INTERNAL_ID);
    await saveScreenshot(page, "debug-details-off");

    // On: the raw frames under the answer, the ids, the empty checkpoint row.
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => (await plumbing()).raw).toBeGreaterThan(0);
    const shown = await plumbing();
    expect(shown.ids).toBeGreaterThan(0);
    expect(shown.checkpoints).toBeGreaterThan(0);
    await expect.poll(() => text(conversation)).toContain("no file changes");
    await saveScreenshot(page, "debug-details-on");
    // Remembered in this browser, across a reload; then off again.
    await page.reload();
    await page.locator(".conversation").waitFor();
    await expect.poll(async () => (await plumbing()).raw).toBeGreaterThan(0);
    await toggle.click();
    await expect.poll(plumbing).toEqual({ raw: 0, ids: 0, checkpoints: 0 });

    // A provider switch: the handoff Claude receives names runs by number, never by id.
    stack.providers.anthropic.enqueue(anthropicTextReply("CLAUDE-ANSWER"));
    const composer = page.getByRole("form", { name: "Composer" });
    await composer.getByLabel("Provider", { exact: true }).selectOption("claude");
    const review = composer.getByRole("checkbox", { name: "Review handoff before sending" });
    if (await review.isChecked()) await review.uncheck();
    await sendAndSeeReplies(page, "continue on Claude", ["CODEX-ANSWER", "CLAUDE-ANSWER"], 90_000);
    const request = stack.providers.anthropic
      .conversationRequests()
      .filter((r) => r.agent === "main")
      .at(-1);
    const sent = request ? anthropicUserTexts(request).join("\n") : "";
    expect(sent).toContain("first question");
    expect(sent).toContain("# Context handoff");
    expect(sent).not.toMatch(INTERNAL_ID);
    // The ids stay in the handoff's data, where a tool (or a bug report) can find them.
    const detail = await client.thread.detail.query({ threadId });
    const transfer = detail.transfers.find((t) => t.targetProvider === "claude");
    expect(transfer?.id).toMatch(/^ctx_/);
    await page.getByRole("link", { name: /^Handoffs/ }).click();
    const handoffText = page.getByTestId("handoff-text").first();
    await expect.poll(() => text(handoffText), { timeout: 30_000 }).toContain("# Context handoff");
    expect(await text(handoffText)).not.toMatch(INTERNAL_ID);
    await saveScreenshot(page, "debug-details-handoff");
  });
});
