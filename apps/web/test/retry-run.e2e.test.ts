import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  httpErrorReply,
  responsesSlowTextReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts, sendMessage } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

/** Message texts and run headers (by run id) in the order the conversation draws them. */
function conversationOrder(page: Page): Promise<string[]> {
  return page
    .locator(".conversation-scroll")
    .locator(
      ".run-header, .item-user_message .user-text, .item-assistant_message .assistant-message",
    )
    .evaluateAll((nodes) =>
      nodes.map((node) =>
        node.classList.contains("run-header")
          ? `run:${node.getAttribute("data-run-id")}`
          : // biome-ignore lint/performance/useDomNodeTextContent: rendered text, as a reader sees it
            (node as HTMLElement).innerText.trim(),
      ),
    );
}

/**
 * E4 in the browser: a run the model refused (HTTP 400) ends failed with its cause and offers
 * "Retry"; the click runs it again (real Codex, fake model) and the answer shows under the same run.
 * P6: a message queued while a run is under way draws as its own run after it, once, in order.
 */
describe.runIf(chromiumAvailable)("Retry and queue runs (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack();

  it("E4: a failed run shows Retry; the retried run completes with its answer, one run header", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Retry",
      title: "Retry thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(
      httpErrorReply(400, "this request is refused"),
      responsesTextReply("RETRIED-ANSWER"),
    );
    await openThread(page, stack, threadId);
    await sendMessage(page, "please try this");

    const header = page.locator(".run-header");
    const retry = page.getByRole("button", { name: /^Retry Run/ });
    await retry.waitFor();
    expect(await header.locator(".run-status").textContent()).toMatch(/failed/i);
    await retry.click();

    await expect.poll(() => assistantTexts(page), { timeout: 60_000 }).toEqual(["RETRIED-ANSWER"]);
    await expect
      .poll(async () => ((await header.locator(".run-status").textContent()) ?? "").toLowerCase(), {
        timeout: 30_000,
      })
      .toMatch(/completed/);
    expect(await header.count()).toBe(1);
    expect(await retry.count()).toBe(0);
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.attempts.map((a) => a.reason)).toEqual(["initial", "retry"]);
  });

  it("P6: a message queued while the first run answers shows as one run header per run, items in order, also after reload", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Queue",
      title: "Queue thread",
      provider: "codex",
    });
    const slow = ["slow ", "first ", "answer ", "done"];
    stack.providers.openai.enqueue(
      responsesSlowTextReply(slow, 600),
      responsesTextReply("SECOND-ANSWER"),
    );
    await openThread(page, stack, threadId);
    await sendMessage(page, "FIRST-MESSAGE");

    // While run 1 is under way the composer offers "Queue message" next to Steer.
    const queue = page.getByRole("button", { name: "Queue message", exact: true });
    await page.getByLabel("Message").fill("SECOND-MESSAGE");
    await queue.click();
    await expect.poll(() => page.getByLabel("Message").inputValue()).toBe("");

    await expect
      .poll(() => client.thread.detail.query({ threadId }).then((d) => d.runs.length))
      .toBe(2);
    // Run 1 answers (once its start is through; slow under load) while message 2 waits in the
    // queue behind it: run 1's reply lasts 2.4 s, so the poll sees that state.
    await expect
      .poll(
        () => client.thread.detail.query({ threadId }).then((d) => d.runs.map((r) => r.status)),
        { timeout: 30_000 },
      )
      .toEqual(["running", "queued"]);
    const { runs } = await client.thread.detail.query({ threadId });
    const [run1, run2] = runs.map((r) => `run:${r.id}`);
    const expected = [
      run1,
      "FIRST-MESSAGE",
      slow.join(""),
      run2,
      "SECOND-MESSAGE",
      "SECOND-ANSWER",
    ];
    // No look at the page while both runs go on shows a run's header twice.
    let twice: string[] | null = null;
    await expect
      .poll(
        async () => {
          const order = await conversationOrder(page);
          const headers = order.filter((entry) => entry.startsWith("run:"));
          if (new Set(headers).size !== headers.length) twice ??= order;
          return order;
        },
        { timeout: 60_000 },
      )
      .toEqual(expected);
    expect(twice).toBeNull();
    await page.reload();
    await page.locator(".conversation").waitFor();
    await expect.poll(() => conversationOrder(page), { timeout: 30_000 }).toEqual(expected);
  });
});
