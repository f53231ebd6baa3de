import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { httpErrorReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import type { Stack } from "./support/stack.ts";
import { assistantTexts, sendMessage } from "./support/ui.ts";

/**
 * E4 in the browser: a run the model refused (HTTP 400) ends failed with its cause and offers
 * "Retry"; the click runs it again (real Codex, fake model) and the answer shows under the same run.
 */
describe.runIf(chromiumAvailable)("Retry a failed run (Chromium, real API, real Codex)", () => {
  let stack: Stack;
  let page: Page;

  useE2eStack({}, (started) => {
    ({ stack, page } = started);
  });

  it("E4: a failed run shows Retry; the retried run completes with its answer, one run header", async () => {
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const { projectId } = await client.project.create.mutate({
      name: "Retry",
      workspaceRoot: stack.providers.workspace,
    });
    const { threadId } = await client.thread.create.mutate({
      projectId,
      title: "Retry thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(
      httpErrorReply(400, "this request is refused"),
      responsesTextReply("RETRIED-ANSWER"),
    );
    await page.goto(`${stack.web.url}/threads/${threadId}`);
    await page.locator(".conversation").waitFor();
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
});
