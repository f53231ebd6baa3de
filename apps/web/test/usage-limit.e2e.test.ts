import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { describe, expect, it } from "vitest";
import { httpErrorReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts, sendMessage } from "./support/ui.ts";

/**
 * Issue 32 in the browser: a run the model refuses with a 429 (past Skein's retries: none here)
 * fails at a usage limit; the thread says so above its queue, says when it resumes by itself,
 * cancels that on request, keeps a message sent meanwhile queued, and "Retry now" runs both.
 * Real API, real Codex on the fake Responses server.
 */
describe.runIf(chromiumAvailable)("Usage limit (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ apiEnv: () => ({ SKEIN_RUN_RETRIES: "0" }) });

  it("B20: the limit shows its resume time with Cancel; the held message waits; Retry now runs both", async () => {
    const { stack, page } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const { projectId } = await client.project.create.mutate({
      name: "Limits",
      workspaceRoot: stack.providers.workspace,
    });
    const { threadId } = await client.thread.create.mutate({
      projectId,
      title: "Limit thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(
      httpErrorReply(429, "Too Many Requests: usage limit reached"),
      responsesTextReply("AFTER-THE-LIMIT"),
      responsesTextReply("THE-HELD-ONE"),
    );
    await page.goto(`${stack.web.url}/threads/${threadId}`);
    await page.locator(".conversation").waitFor();
    await sendMessage(page, "first message");

    const notice = page.getByRole("status", { name: "Usage limit" });
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.textContent()).toMatch(
      /Usage limit reached \(Codex\) — Codex did not say when it resets\./,
    );
    expect(await notice.textContent()).toMatch(/The run resumes by itself at \d\d:\d\d\./);
    // The failed run's own header says it too.
    const header = page.locator(".run-header").first();
    expect(await header.locator(".run-limit").textContent()).toMatch(
      /^Usage limit reached; resumes by itself at \d\d:\d\d$/,
    );

    await sendMessage(page, "sent while limited");
    await page.getByRole("region", { name: "Queue" }).waitFor();
    const held = await client.thread.detail.query({ threadId });
    expect(held.runs.map((r) => r.status)).toEqual(["failed", "queued"]);

    await notice.getByRole("button", { name: "Cancel" }).click();
    await expect
      .poll(async () => (await notice.textContent()) ?? "", { timeout: 30_000 })
      .toMatch(/This thread does not resume by itself\./);
    expect((await client.thread.detail.query({ threadId })).thread.onUsageLimit).toBe("stop");

    await notice.getByRole("button", { name: "Retry now" }).click();
    await expect
      .poll(() => assistantTexts(page), { timeout: 60_000 })
      .toEqual(["AFTER-THE-LIMIT", "THE-HELD-ONE"]);
    await expect.poll(() => notice.count(), { timeout: 30_000 }).toBe(0);
    expect(await page.locator(".run-limit").count()).toBe(0);
    const done = await client.thread.detail.query({ threadId });
    expect(done.runs.map((r) => r.status)).toEqual(["completed", "completed"]);
    expect(done.thread.usageLimit ?? null).toBeNull();
  });
});
