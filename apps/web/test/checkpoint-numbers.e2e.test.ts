import { describe, expect, it } from "vitest";
import { execCommandReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { newThread, runsCompleted } from "./support/threads.ts";

/**
 * Issue 33 (E3) in the browser: a compaction run is a run but not a turn, so the Checkpoints
 * page names the second turn's checkpoint "after run 2", as its run header does, not by its
 * ordinal (3). Real Codex (fake model) edits and compacts; real git holds the checkpoints.
 */
describe.runIf(chromiumAvailable)(
  "checkpoint numbers after a compaction (Chromium, real Codex)",
  () => {
    const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

    it("E3: message, /compact, message: the checkpoint cards read after run 1 and after run 2, never run 3", async () => {
      const { stack, page } = e2e;
      const { client, threadId } = await newThread(stack, {
        project: "Checkpoint numbers",
        title: "Checkpoint numbers thread",
        provider: "codex",
        runtimeMode: "full-access",
      });
      stack.providers.openai.enqueue(
        execCommandReply("printf 'one\\n' > first.txt"),
        responsesTextReply("RUN-ONE"),
      );
      await client.thread.sendMessage.mutate({ threadId, text: "write first.txt" });
      await runsCompleted(client, threadId, 1);
      stack.providers.openai.enqueue(responsesTextReply("SUMMARY"));
      await client.thread.compact.mutate({ threadId });
      await runsCompleted(client, threadId, 2);
      stack.providers.openai.enqueue(
        execCommandReply("printf 'two\\n' > second.txt"),
        responsesTextReply("RUN-TWO"),
      );
      await client.thread.sendMessage.mutate({ threadId, text: "write second.txt" });
      await runsCompleted(client, threadId, 3);
      // The run's checkpoint is captured after it ends: wait for it.
      await expect
        .poll(
          async () => {
            const d = await client.thread.detail.query({ threadId });
            return d.checkpoints.some((c) => c.runId === d.runs[2]?.id && c.status === "ready");
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      const detail = await client.thread.detail.query({ threadId });
      const second = detail.runs[2]!;
      expect(second.conversationNumber).toBe(2);
      const secondCheckpoint = detail.checkpoints.find((c) => c.runId === second.id);
      expect(secondCheckpoint?.appRunOrdinal).toBe(3);

      await page.goto(`${stack.web.url}/threads/${threadId}/checkpoints`);
      const card = page.locator(`[data-checkpoint-id="${secondCheckpoint!.id}"]`);
      await expect
        .poll(() => card.getAttribute("aria-label"), { timeout: 30_000 })
        .toBe("checkpoint after run 2");
      expect(await card.locator("h3").textContent()).toMatch(/^After run 2\b/);
      await expect
        .poll(() => page.getByRole("region", { name: "checkpoint after run 1" }).count())
        .toBe(1);
      // The compaction run's own checkpoint is named, not numbered.
      const compaction = detail.checkpoints.find((c) => c.runId === detail.runs[1]?.id);
      expect(compaction).toBeDefined();
      const compactionCard = page.locator(`[data-checkpoint-id="${compaction!.id}"]`);
      expect(await compactionCard.getAttribute("aria-label")).toBe(
        "checkpoint after the compaction",
      );
      const names = await page
        .locator("section.checkpoint-card")
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")));
      expect(names.some((name) => name?.includes("run 3"))).toBe(false);

      // The Review page's run picker and its summary count the same way.
      await page.goto(`${stack.web.url}/threads/${threadId}/review`);
      const picker = page.getByLabel("Which changes");
      const options = () =>
        picker.locator("option").evaluateAll((nodes) => nodes.map((n) => n.textContent));
      await expect
        .poll(options, { timeout: 30_000 })
        .toEqual(["Whole thread", "Since I last looked", "Run 1", "Compaction", "Run 2"]);
      await picker.selectOption(`run:${second.id}`);
      await expect
        .poll(() => page.locator(".review-summary").textContent(), { timeout: 30_000 })
        .toMatch(/after the compaction → after run 2/);
    });
  },
);
