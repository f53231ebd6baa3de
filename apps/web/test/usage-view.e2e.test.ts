import { describe, expect, it } from "vitest";
import { responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { newThread } from "./support/threads.ts";

/** B20 usage view in the browser: the tokens real Codex reported, per provider, thread and day. */
describe.runIf(chromiumAvailable)("Usage view (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack();

  it("B20: the usage page lists each thread's recorded tokens for the day and the provider's total", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Usage",
      title: "Counted thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(
      responsesTextReply("one", { usage: { inputTokens: 1_000, outputTokens: 200 } }),
      responsesTextReply("two", { usage: { inputTokens: 300, outputTokens: 0 } }),
    );
    for (const text of ["first", "second"]) {
      const { runId } = await client.thread.sendMessage.mutate({ threadId, text });
      await expect
        .poll(
          async () =>
            (await client.thread.detail.query({ threadId })).runs.find((r) => r.id === runId)
              ?.status,
          { timeout: 90_000 },
        )
        .toBe("completed");
    }
    await page.goto(`${stack.web.url}/usage`);
    const row = page.getByRole("row", { name: /Counted thread/ });
    await row.waitFor({ timeout: 60_000 });
    const cells = await row.getByRole("cell").allInnerTexts();
    expect(cells.map((c) => c.trim())).toEqual([
      new Date().toISOString().slice(0, 10),
      "Codex",
      "Counted thread",
      "2",
      "1.5K tokens",
    ]);
    const totals = await page.getByRole("list", { name: "Usage by provider" }).innerText();
    expect(totals).toMatch(/Codex: 1\.5K tokens over 2 runs/);
  });
});
