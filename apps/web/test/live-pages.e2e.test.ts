import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { execCommandReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { newThread } from "./support/threads.ts";

/** The tRPC procedures a page called, in order, from its network requests. */
function recordProcedures(page: Page): string[] {
  const calls: string[] = [];
  page.on("request", (request) => {
    const pathname = new URL(request.url()).pathname;
    const procedure = pathname.split("/").at(-1) ?? "";
    for (const name of procedure.split(",")) if (name.includes(".")) calls.push(name);
  });
  return calls;
}

/**
 * Issue 33 item 1 in the browser: the graph and approvals pages follow their watches
 * (`thread.watchGraph`, `request.watchPending`); they re-read only when an event says something
 * changed, so a page left open on a quiet server asks nothing more, and new work shows up.
 */
describe.runIf(chromiumAvailable)(
  "Live graph and approvals pages (Chromium, real API, Codex)",
  () => {
    const e2e = useE2eStack();

    it("P3 S2: the graph page draws a run that starts after it opened, from its watch", async () => {
      const { stack, page } = e2e;
      const { client, threadId } = await newThread(stack, {
        project: "Live project",
        title: "Live graph",
        provider: "codex",
        runtimeMode: "approval-required",
      });
      const calls = recordProcedures(page);
      await page.goto(`${stack.web.url}/threads/${threadId}/graph`);
      const runs = page.locator('[data-graph-kind="run"]');
      await page.locator(".graph-canvas").waitFor({ timeout: 60_000 });
      expect(await runs.count()).toBe(0);
      expect(calls).toContain("thread.watchGraph");

      stack.providers.openai.enqueue(responsesTextReply("first reply"));
      const { runId } = await client.thread.sendMessage.mutate({ threadId, text: "hello" });
      await expect.poll(() => runs.count(), { timeout: 90_000 }).toBe(1);
      await expect
        .poll(async () => (await client.thread.detail.query({ threadId })).runs[0]?.status, {
          timeout: 90_000,
        })
        .toBe("completed");
      expect(runId).toMatch(/^run_/);

      // The first graph came from the watch's snapshot, not from a read: reads follow events only.
      const watchAt = calls.indexOf("thread.watchGraph");
      expect(calls.slice(0, watchAt).includes("thread.graph")).toBe(false);
    });

    it("P5 S2: the approvals page lists a request that opens after it loaded and drops it once answered elsewhere", async () => {
      const { stack, page } = e2e;
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const calls = recordProcedures(page);
      await page.goto(`${stack.web.url}/approvals`);
      await page.getByText("Nothing is waiting for you.").waitFor({ timeout: 60_000 });
      expect(calls).toContain("request.watchPending");

      const { projects } = await client.project.list.query();
      const { threadId } = await client.thread.create.mutate({
        projectId: projects[0]!.id,
        title: "Needs approval",
        provider: "codex",
        runtimeMode: "approval-required",
      });
      stack.providers.openai.enqueue(
        execCommandReply("echo LIVE-APPROVAL"),
        responsesTextReply("done"),
      );
      await client.thread.sendMessage.mutate({ threadId, text: "run it" });
      const accept = page.getByRole("button", { name: /^Accept: / }).first();
      await accept.waitFor({ timeout: 90_000 });

      const pending = await client.request.pending.query({ threadId });
      expect(pending.requests).toHaveLength(1);
      await client.request.respond.mutate({
        requestId: pending.requests[0]!.id,
        decision: "accept",
      });
      await page.getByText("Nothing is waiting for you.").waitFor({ timeout: 60_000 });
    });

    it('E12: "Fork from here" under a message of a finished run opens a fork whose inherited items end at that message', async () => {
      const { stack, page } = e2e;
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const { projects } = await client.project.list.query();
      const { threadId } = await client.thread.create.mutate({
        projectId: projects[0]!.id,
        title: "Fork from an item",
        provider: "codex",
      });
      for (const [text, reply] of [
        ["ASK-ONE", "REPLY-ONE"],
        ["ASK-TWO", "REPLY-TWO"],
      ] as const) {
        stack.providers.openai.enqueue(responsesTextReply(reply));
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
      await page.goto(`${stack.web.url}/threads/${threadId}`);
      const question = page.locator(".item-user_message", { hasText: "ASK-TWO" });
      await question.waitFor({ timeout: 60_000 });
      await question.hover();
      await page.locator(".item-user_message:has-text('ASK-TWO') + .item-fork button").click();
      await page.waitForURL((url) => !url.pathname.endsWith(threadId), { timeout: 30_000 });
      const inherited = page.getByRole("region", { name: "Inherited from the source thread" });
      await inherited.getByText("ASK-TWO").waitFor({ timeout: 30_000 });
      expect(await inherited.getByText("ASK-ONE").count()).toBe(1);
      // Run 2's reply (whatever the shared fake model answered) comes after the cut.
      const sourceItems = (await client.thread.detail.query({ threadId })).turnItems;
      const lastReply = sourceItems.filter((i) => i.type === "assistant_message").at(-1);
      expect(lastReply?.type === "assistant_message" && lastReply.text.length).toBeGreaterThan(0);
      const replyText = lastReply?.type === "assistant_message" ? lastReply.text : "";
      expect(await inherited.getByText(replyText, { exact: true }).count()).toBe(0);
      const forkId = new URL(page.url()).pathname.split("/").at(-1)!;
      const fork = await client.thread.detail.query({ threadId: forkId as never });
      const source = fork.transfers.find((t) => t.type === "fork");
      expect(source?.sourcePoint.turnItemId).toMatch(/^itm_/);
    });
  },
);
