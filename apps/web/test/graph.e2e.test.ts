import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { anthropicTextReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { newThread } from "./support/threads.ts";

const FORKS = 190;

type Box = { id: string; x: number; y: number; width: number; height: number };

/** Screen boxes of the graph nodes React Flow drew, read inside the page. */
function nodeBoxes(page: Page): Promise<Box[]> {
  return page.locator(".react-flow__node").evaluateAll((nodes) =>
    nodes.map((node) => {
      const r = node.getBoundingClientRect();
      return {
        id: node.getAttribute("data-id") ?? "",
        x: r.x,
        y: r.y,
        width: r.width,
        height: r.height,
      };
    }),
  );
}

/**
 * Issue 17 item 6 in the browser: a thread with runs on Codex and Claude (real providers, fake
 * models), a provider-switch transfer and ~190 forks is drawn as a node-link graph of 200+ nodes
 * that do not overlap, zooms and pans, and each node clicks through to its item.
 */
describe.runIf(chromiumAvailable)("Graph view (Chromium, real API, real providers)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("draws threads, runs, attempts, provider threads and transfers; 200+ nodes stay apart; click-through", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Graph project",
      title: "Graph main",
      provider: "codex",
    });
    const runs: string[] = [];
    for (const [i, provider] of (["codex", "codex", "claude"] as const).entries()) {
      if (provider === "codex") stack.providers.openai.enqueue(responsesTextReply(`reply ${i}`));
      else stack.providers.anthropic.enqueue(anthropicTextReply(`reply ${i}`));
      const { runId } = await client.thread.sendMessage.mutate({
        threadId,
        text: `message ${i}`,
        provider,
      });
      runs.push(runId);
      await expect
        .poll(
          async () =>
            (await client.thread.detail.query({ threadId })).runs.find((r) => r.id === runId)
              ?.status,
          { timeout: 90_000 },
        )
        .toBe("completed");
    }
    for (let i = 0; i < FORKS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, FORKS - i) }, (_, j) =>
          client.thread.fork.mutate({
            threadId,
            title: `Fork ${i + j + 1}`,
            isolatedWorkspace: false,
          }),
        ),
      );
    }

    const started = Date.now();
    await page.goto(`${stack.web.url}/threads/${threadId}/graph`);
    const canvas = page.locator(".graph-canvas");
    await expect
      .poll(async () => Number(await canvas.getAttribute("data-node-count")), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(200);
    await expect
      .poll(async () => (await nodeBoxes(page)).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(200);
    console.info(`[graph e2e] ${FORKS + 12} nodes drawn ${Date.now() - started} ms after goto`);
    await saveScreenshot(page, "graph-200-nodes");

    // Every kind is there, and no two drawn nodes overlap on screen.
    for (const kind of ["thread", "run", "attempt", "provider_thread", "transfer"]) {
      expect(await page.locator(`[data-graph-kind="${kind}"]`).count(), kind).toBeGreaterThan(0);
    }
    const boxes = await nodeBoxes(page);
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const a = boxes[i]!;
        const b = boxes[j]!;
        const apart =
          a.x + a.width <= b.x + 0.5 ||
          b.x + b.width <= a.x + 0.5 ||
          a.y + a.height <= b.y + 0.5 ||
          b.y + b.height <= a.y + 0.5;
        if (!apart) overlaps.push(`${a.id}/${b.id}`);
      }
    }
    expect(overlaps).toEqual([]);

    // Large graphs open on the thread and its first runs at a readable size.
    const firstRun = await page.locator('[data-graph-kind="run"]').first().boundingBox();
    expect(firstRun?.width ?? 0).toBeGreaterThanOrEqual(110);

    // Zoom in with the controls: the nodes grow on screen.
    const widthBefore = (await page.locator('[data-graph-kind="run"]').first().boundingBox())
      ?.width;
    for (let i = 0; i < 4; i += 1) await page.getByRole("button", { name: "Zoom In" }).click();
    await expect
      .poll(
        async () => (await page.locator('[data-graph-kind="run"]').first().boundingBox())?.width,
        { timeout: 10_000 },
      )
      .toBeGreaterThan((widthBefore ?? 0) * 1.5);
    await page.getByRole("button", { name: "Fit View" }).click();
    await saveScreenshot(page, "graph-200-nodes-fit");

    // The provider switch to Claude is a transfer node into run 3; it opens the handoff.
    const transfer = page.locator('[data-graph-kind="transfer"]').first();
    await transfer.scrollIntoViewIfNeeded();
    const transferHref = await transfer.getByRole("link").getAttribute("href");
    expect(transferHref).toMatch(new RegExp(`/threads/${threadId}/handoffs#ctx_`));

    // Click-through: a fork's node opens that fork.
    const fork = page.locator('[data-graph-kind="thread"]', { hasText: "Fork 1" }).first();
    await page.getByRole("button", { name: "Fit View" }).click();
    const forkLink = fork.getByRole("link", { name: /^Fork 1\d*$/ });
    const forkHref = await forkLink.getAttribute("href");
    await forkLink.dispatchEvent("click");
    await page.waitForURL((url) => url.pathname === forkHref);

    // Back on the main thread's graph, a run opens its diff.
    await page.goto(`${stack.web.url}/threads/${threadId}/graph`);
    await page.locator('[data-graph-kind="run"]').first().waitFor();
    await page.getByRole("button", { name: "Zoom In" }).click();
    await saveScreenshot(page, "graph-zoomed");
    const runLink = page.locator('[data-graph-kind="run"]').first().getByRole("link");
    const runHref = await runLink.getAttribute("href");
    expect(runHref).toMatch(/\/review\?run=run_|\/threads\/[^/]+$/);
    await runLink.dispatchEvent("click");
    await page.waitForURL((url) => `${url.pathname}${url.search}` === runHref);
  }, 600_000);
});
