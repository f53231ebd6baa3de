import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import type { Stack } from "./support/stack.ts";
import { assistantTexts, sendMessage, text } from "./support/ui.ts";

/**
 * B8 in the browser: the Timeline scrubber takes a thread (real Codex, fake model) back to the
 * moment before its second message, shows it as it was there, and "Live" returns; a fork of it is
 * scrubbed back to where it was made (only what it inherits) and forward again, and its answer
 * opens to its raw frames.
 */
describe.runIf(chromiumAvailable)("time travel (Chromium, real API, real Codex)", () => {
  let stack: Stack;
  let page: Page;

  useE2eStack({ viewport: { width: 1400, height: 900 } }, (started) => {
    ({ stack, page } = started);
  });

  it("B8: the scrubber shows the thread as it was before its second message, Live returns; a fork scrubs back to its making and forward; raw frames open", async () => {
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const { projectId } = await client.project.create.mutate({
      name: "Travel",
      workspaceRoot: stack.providers.workspace,
    });
    const { threadId } = await client.thread.create.mutate({
      projectId,
      title: "Travel thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(
      responsesTextReply("FIRST-ANSWER"),
      responsesTextReply("SECOND-ANSWER"),
    );
    await page.goto(`${stack.web.url}/threads/${threadId}`);
    await page.locator(".conversation").waitFor();
    await sendMessage(page, "first question");
    await expect.poll(() => assistantTexts(page), { timeout: 60_000 }).toEqual(["FIRST-ANSWER"]);
    await sendMessage(page, "second question");
    await expect
      .poll(() => assistantTexts(page), { timeout: 60_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER"]);

    // The stop just before the second message was queued.
    const timeline = await client.thread.timeline.query({ threadId });
    const queued = timeline.points.flatMap((p, i) => (p.type === "RunQueued" ? [i] : []));
    expect(queued).toHaveLength(2);
    const target = queued[1]! - 1;

    await page.getByRole("button", { name: "Timeline" }).click();
    const range = page.getByLabel("Show the thread as of event");
    await range.focus();
    await range.press("Home");
    for (let i = 0; i < target; i += 1) await range.press("ArrowRight");

    const banner = page.locator(".past-banner");
    await expect
      .poll(() => text(banner), { timeout: 30_000 })
      .toContain(`event #${timeline.points[target]!.sequence}`);
    await expect.poll(() => assistantTexts(page), { timeout: 30_000 }).toEqual(["FIRST-ANSWER"]);
    expect(await page.getByLabel("Message").count()).toBe(0);
    await saveScreenshot(page, "time-travel-past");

    await page.getByRole("button", { name: "Live", exact: true }).click();
    await expect
      .poll(() => assistantTexts(page), { timeout: 30_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER"]);
    await page.getByLabel("Message").waitFor();
    expect(await banner.count()).toBe(0);

    // A fork, scrubbed back to where it was made (only what it inherits) and forward again.
    stack.providers.openai.enqueue(responsesTextReply("FORK-ANSWER"));
    const { threadId: forkId } = await client.thread.fork.mutate({
      threadId,
      title: "Travel fork",
    });
    await page.goto(`${stack.web.url}/threads/${forkId}`);
    await page.locator(".conversation").waitFor();
    await sendMessage(page, "fork question");
    await expect
      .poll(() => assistantTexts(page), { timeout: 60_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER", "FORK-ANSWER"]);
    const forkTimeline = await client.thread.timeline.query({ threadId: forkId });
    await page.getByRole("button", { name: "Timeline" }).click();
    const forkRange = page.getByLabel("Show the thread as of event");
    await forkRange.focus();
    await forkRange.press("Home");
    await expect
      .poll(() => text(banner), { timeout: 30_000 })
      .toContain(`event #${forkTimeline.points[0]!.sequence}`);
    await expect
      .poll(() => assistantTexts(page), { timeout: 30_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER"]);
    await saveScreenshot(page, "time-travel-fork-made");
    // Forward to its last event: the fork as it is now.
    await forkRange.press("End");
    await expect
      .poll(() => assistantTexts(page), { timeout: 30_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER", "FORK-ANSWER"]);

    // The fork's answer opens to the raw Codex frames it came from, each with the event it led to.
    await page.goto(`${stack.web.url}/threads/${forkId}`);
    const raw = page.getByTestId("raw-frames").last();
    await raw.locator("summary").first().click();
    const frames = raw.locator(".raw-frame-list > li");
    await expect.poll(() => frames.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const summaries = await frames.locator("summary").allInnerTexts();
    expect(summaries.some((line) => /#\d+/.test(line))).toBe(true);
    await saveScreenshot(page, "time-travel-raw-frames");
  });
});
