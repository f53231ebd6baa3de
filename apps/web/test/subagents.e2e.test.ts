import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  execCommandReply,
  forAgent,
  notForAgent,
  responsesTextReply,
  spawnAgentReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts, sendMessage, text } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

const parent = notForAgent("helper");
const child = forAgent("helper");

/**
 * T9 in the browser: a Codex sub-agent (real app-server, multi_agent_v2, fake model) shows as a
 * child thread under its parent in the sidebar, its items stream into its own thread, its
 * approval is answered there, and "Promote to thread" makes it a thread of its own.
 */
describe.runIf(chromiumAvailable)("sub-agents (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ timeoutMs: 60_000, codexFeatures: { multi_agent_v2: true } });

  it("T9: a Codex sub-agent is a child thread in the sidebar with its own live items; its approval is answered there; it can be promoted", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Helpers",
      title: "Parent thread",
      provider: "codex",
      runtimeMode: "approval-required",
      // The child's file is looked for in the project's folder (issue 26: a local thread).
      workspace: "local",
    });
    stack.providers.openai.enqueue(
      { ...spawnAgentReply("helper", "CHILD-TASK: write child.txt", "call_spawn"), when: parent },
      { ...execCommandReply("echo from-child > child.txt"), when: child },
      {
        kind: "response",
        items: [
          {
            type: "function_call",
            name: "wait_agent",
            namespace: "collaboration",
            arguments: { timeout_ms: 60_000 },
          },
        ],
        when: parent,
      },
      { ...responsesTextReply("CHILD-DONE"), when: child },
      { ...responsesTextReply("PARENT-DONE"), when: parent },
    );
    await openThread(page, stack, threadId);
    await sendMessage(page, "delegate to a helper");

    // The child's row sits right under its parent's, indented, marked as a sub-agent.
    const childRow = page.locator(".sidebar .thread-row:has(.badge-subagent)");
    await childRow.waitFor();
    const childId = await childRow.getAttribute("data-thread-id");
    if (!childId) throw new Error("the child row has no thread id");
    const rows = await page
      .locator(".sidebar .thread-row")
      .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-thread-id")));
    expect(rows.indexOf(childId)).toBe(rows.indexOf(threadId) + 1);
    const indent = (id: string) =>
      page
        .locator(`.sidebar .thread-row[data-thread-id="${id}"]`)
        .evaluate((n) => Number.parseFloat((n as HTMLElement).style.paddingLeft));
    expect(await indent(childId)).toBeGreaterThan(await indent(threadId));

    // In the child thread: the sub-agent's task and its approval, answered there.
    await childRow.getByRole("link").click();
    await page.waitForURL(new RegExp(`/threads/${childId}$`));
    const conversation = page.locator(".conversation");
    await expect.poll(() => text(conversation)).toContain("Sub-agent task from Parent thread");
    const accept = conversation.getByRole("button", { name: /^Accept: / }).first();
    await accept.waitFor();
    expect(existsSync(join(stack.providers.workspace, "child.txt"))).toBe(false);
    await saveScreenshot(page, "subagent-child-approval");
    await accept.click();
    await expect.poll(() => assistantTexts(page), { timeout: 60_000 }).toContain("CHILD-DONE");
    expect(await text(page.locator(".item-command_execution").last())).toContain("echo from-child");
    expect(readFileSync(join(stack.providers.workspace, "child.txt"), "utf8")).toBe("from-child\n");
    // Nothing of the child's lands in the parent, which finishes on its own.
    await expect
      .poll(async () => (await client.thread.detail.query({ threadId })).runs[0]?.status, {
        timeout: 60_000,
      })
      .toBe("completed");

    // Promoted: a top-level row of its own, no longer marked as a sub-agent.
    await page.getByRole("button", { name: "Promote to thread" }).click();
    await expect.poll(() => childRow.count(), { timeout: 30_000 }).toBe(0);
    const promoted = await client.thread.detail.query({ threadId: childId });
    expect(promoted.thread.lineage?.parentThreadId ?? null).toBeNull();
    await expect
      .poll(() => page.getByRole("button", { name: "Promote to thread" }).count())
      .toBe(0);
  });
});
