import { describe, expect, it } from "vitest";
import { responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { formatElapsed } from "../src/lib/elapsed.ts";
import { assistantTexts, text } from "./support/ui.ts";
import { newThread, openThread, sendAndSeeReplies } from "./support/threads.ts";

/**
 * B8 in the browser: the Timeline scrubber takes a thread (real Codex, fake model) back to the
 * moment before its second message, shows it as it was there — its header too — and "Live"
 * returns; a run seen while it was in flight shows the time it had run by then (issue 29 item
 * 7); a fork of it is scrubbed back to where it was made (only what it inherits) and forward
 * again, and with debug details on its answer opens to its raw frames.
 */
describe.runIf(chromiumAvailable)("time travel (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B8: the scrubber shows the thread as it was before its second message, Live returns; a fork scrubs back to its making and forward; raw frames open", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Travel",
      title: "Travel thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(
      responsesTextReply("FIRST-ANSWER"),
      responsesTextReply("SECOND-ANSWER"),
    );
    await openThread(page, stack, threadId);
    await sendAndSeeReplies(page, "first question", ["FIRST-ANSWER"]);
    await sendAndSeeReplies(page, "second question", ["FIRST-ANSWER", "SECOND-ANSWER"]);

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
    // Said as a moment and a step, not as the store's event number and name (B16).
    await expect.poll(() => text(banner), { timeout: 30_000 }).toContain(`(step ${target + 1} of `);
    expect(await text(banner)).not.toMatch(/event #|[A-Z][a-z]+[A-Z][a-z]+/);
    await expect.poll(() => assistantTexts(page), { timeout: 30_000 }).toEqual(["FIRST-ANSWER"]);
    expect(await page.getByLabel("Message").count()).toBe(0);
    // The header travels with the body: one run then, no actions on the past.
    const header = page.locator(".thread-header");
    await expect.poll(() => text(header)).toContain("1 runs");
    expect(await text(header)).toContain("as it was then");
    expect(await page.getByRole("button", { name: "Fork latest" }).count()).toBe(0);
    await saveScreenshot(page, "time-travel-past");

    // Back to a moment inside the first run: it shows the time it had run by then, still.
    const [firstRun] = (await client.thread.detail.query({ threadId })).runs;
    const inFlight = timeline.points.findIndex(
      (p, i) => i > 0 && timeline.points[i - 1]!.type === "RunStarted",
    );
    expect(inFlight).toBeGreaterThan(0);
    // Long enough after that moment that "now" would read differently from "by then".
    const startedAt = Date.parse(firstRun!.startedAt!);
    await expect.poll(() => Date.now() - startedAt, { timeout: 10_000 }).toBeGreaterThan(2_500);
    await range.press("Home");
    for (let i = 0; i < inFlight; i += 1) await range.press("ArrowRight");
    const progress = page.locator('.run-progress[data-past="true"]').first();
    await progress.waitFor({ timeout: 30_000 });
    const byThen = formatElapsed(Date.parse(timeline.points[inFlight]!.recordedAt) - startedAt);
    expect(await text(progress)).toBe(byThen);
    expect(await page.locator('.run-progress[data-live="true"]').count()).toBe(0);
    await saveScreenshot(page, "time-travel-in-flight");

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
    await openThread(page, stack, forkId);
    await sendAndSeeReplies(page, "fork question", [
      "FIRST-ANSWER",
      "SECOND-ANSWER",
      "FORK-ANSWER",
    ]);
    await page.getByRole("button", { name: "Timeline" }).click();
    const forkRange = page.getByLabel("Show the thread as of event");
    await forkRange.focus();
    await forkRange.press("Home");
    await expect.poll(() => text(banner), { timeout: 30_000 }).toContain("(step 1 of ");
    await expect
      .poll(() => assistantTexts(page), { timeout: 30_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER"]);
    await saveScreenshot(page, "time-travel-fork-made");
    // Forward to its last event: the fork as it is now.
    await forkRange.press("End");
    await expect
      .poll(() => assistantTexts(page), { timeout: 30_000 })
      .toEqual(["FIRST-ANSWER", "SECOND-ANSWER", "FORK-ANSWER"]);

    // With debug details on, the fork's answer opens to the raw Codex frames it came from, each
    // with the event it led to (off by default: B16).
    await openThread(page, stack, forkId);
    expect(await page.getByTestId("raw-frames").count()).toBe(0);
    await page.getByRole("button", { name: "Debug details" }).click();
    const raw = page.getByTestId("raw-frames").last();
    await raw.locator("summary").first().click();
    const frames = raw.locator(".raw-frame-list > li");
    await expect.poll(() => frames.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const summaries = await frames.locator("summary").allInnerTexts();
    expect(summaries.some((line) => /#\d+/.test(line))).toBe(true);
    await saveScreenshot(page, "time-travel-raw-frames");
  });
});
