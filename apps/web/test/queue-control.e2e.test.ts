import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  responsesSlowTextReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { sendMessage } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

function queuedTexts(page: Page): Promise<string[]> {
  return page
    .getByRole("region", { name: "Queue", exact: true })
    .locator(".queued-text")
    .allInnerTexts();
}

/**
 * B20 in the browser: messages queued behind a running reply are listed in the order they will
 * start, edited, moved and withdrawn from the thread; the model (real Codex, fake model) gets
 * exactly what the list showed when each started.
 */
describe.runIf(chromiumAvailable)("A queue you control (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack();

  it("B20: queued messages are edited, moved up and withdrawn in the thread; the model gets the result in order", async () => {
    const { stack, page } = e2e;
    const { threadId } = await newThread(stack, {
      project: "Queue",
      title: "Queue control",
      provider: "codex",
    });
    const slow = "a slow first answer that takes its time to arrive".split(/(?<= )/);
    stack.providers.openai.enqueue(
      responsesSlowTextReply(slow, 800),
      responsesTextReply("ANSWER-TWO"),
      responsesTextReply("ANSWER-THREE"),
    );
    await openThread(page, stack, threadId);
    await sendMessage(page, "UI-FIRST");
    const queue = page.getByRole("button", { name: "Queue message", exact: true });
    for (const text of ["UI-WITHDRAW-ME", "UI-TWO-DRAFT", "UI-THREE"]) {
      await page.getByLabel("Message", { exact: true }).fill(text);
      await queue.click();
      await expect.poll(() => page.getByLabel("Message", { exact: true }).inputValue()).toBe("");
    }
    await expect
      .poll(() => queuedTexts(page), { timeout: 30_000 })
      .toEqual(["UI-WITHDRAW-ME", "UI-TWO-DRAFT", "UI-THREE"]);

    const item = (n: number) => page.getByRole("listitem", { name: `Queued #${n}`, exact: true });
    await item(1).getByRole("button", { name: "Withdraw" }).click();
    await expect.poll(() => queuedTexts(page)).toEqual(["UI-TWO-DRAFT", "UI-THREE"]);
    await item(1).getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Queued text").fill("UI-TWO-EDITED");
    await item(1).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => queuedTexts(page)).toEqual(["UI-TWO-EDITED", "UI-THREE"]);
    await item(2).getByRole("button", { name: "Move up" }).click();
    await expect.poll(() => queuedTexts(page)).toEqual(["UI-THREE", "UI-TWO-EDITED"]);

    await expect.poll(() => stack.providers.openai.requests.length, { timeout: 90_000 }).toBe(3);
    const all = stack.providers.openai.requests.map((body) => JSON.stringify(body));
    expect(all.join("\n")).not.toMatch(/UI-WITHDRAW-ME|UI-TWO-DRAFT/);
    const last = all.at(-1)!;
    expect(last.indexOf("UI-THREE")).toBeGreaterThan(last.indexOf("UI-FIRST"));
    expect(last.indexOf("UI-TWO-EDITED")).toBeGreaterThan(last.indexOf("UI-THREE"));
    await expect.poll(() => queuedTexts(page), { timeout: 30_000 }).toEqual([]);
  });
});
