import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import {
  anthropicTextReply,
  applyPatchReply,
  execCommandReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { type AxeFinding, forEachTheme, seriousA11yViolations } from "./support/axe.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import type { Stack } from "./support/stack.ts";
import { newThread, type NewThread, runsCompleted } from "./support/threads.ts";

const PATCH = [
  "*** Begin Patch",
  "*** Update File: README.md",
  "@@",
  " # demo",
  "+",
  "+Checked for contrast.",
  "*** Add File: src/contrast.ts",
  "+export const ratio = (a: number, b: number): number => (a + 0.05) / (b + 0.05);",
  "*** End Patch",
  "",
].join("\n");

// Each page reloads twice and runs axe twice: minutes on a loaded two-core machine.
const PAGES_TIMEOUT = 900_000;

/**
 * Issue 29 item 8: axe-core finds nothing serious or critical on the review, parallel, handoffs
 * and graph pages and on a thread with an approval pending, in both themes, with real content
 * (a diff open, forks compared, a provider switch's handoff, a command waiting for the person).
 * Scrolling regions must be reachable by keyboard (axe's scrollable-region-focusable). Home,
 * project, thread and approvals are checked by design-system.e2e.test.ts.
 */
describe.runIf(chromiumAvailable)("axe on every page, both themes (Chromium, real API)", () => {
  let stack: Stack;
  let page: Page;
  let main: NewThread;
  const findings: Record<string, AxeFinding[]> = {};

  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });
  beforeAll(() => {
    ({ stack, page } = e2e);
  });

  /** Opens `path`, waits for `ready`, then axe in both themes (and a screenshot of each). */
  async function check(name: string, path: string, ready: string) {
    await page.goto(`${stack.web.url}${path}`);
    await page.locator(ready).first().waitFor({ timeout: 60_000 });
    await forEachTheme(page, async (theme) => {
      await page.locator(ready).first().waitFor({ timeout: 60_000 });
      await saveScreenshot(page, `a11y-${name}-${theme}`);
      findings[`${name}-${theme}`] = await seriousA11yViolations(page, `a11y-${name}-${theme}`);
    });
  }

  it(
    "review (a diff open), parallel, handoffs, graph and a pending approval",
    async () => {
      main = await newThread(stack, {
        project: "A11y",
        title: "A11y main",
        provider: "codex",
        runtimeMode: "full-access",
        workspace: "local",
      });
      const { client, threadId } = main;
      stack.providers.openai.enqueue(
        applyPatchReply(PATCH, "call_a11y"),
        responsesTextReply("Patched the readme."),
      );
      await client.thread.sendMessage.mutate({ threadId, text: "patch it" });
      await runsCompleted(client, threadId);
      // A provider switch: its handoff is what the handoffs page shows.
      stack.providers.anthropic.enqueue(anthropicTextReply("Claude took over."));
      await client.thread.sendMessage.mutate({ threadId, text: "go on", provider: "claude" });
      await runsCompleted(client, threadId);
      // Two forks side by side for the parallel page.
      stack.providers.openai.enqueue(
        responsesTextReply("fork one done"),
        responsesTextReply("fork two done"),
      );
      const fan = await client.thread.fanOut.mutate({
        threadId,
        text: "try it",
        targets: [{ provider: "codex" }, { provider: "codex" }],
        isolated: true,
      });
      for (const fork of fan.forks) await runsCompleted(client, fork.threadId);

      await check("review", `/threads/${threadId}/review`, ".review-diff");
      await check("parallel", `/threads/${threadId}/parallel`, ".fork-table tbody tr");
      await check("handoffs", `/threads/${threadId}/handoffs`, "main h2, main h3");
      await check("graph", `/threads/${threadId}/graph`, '[data-graph-kind="run"]');

      // A command waiting for the person, on the thread page.
      const asking = await newThread(stack, {
        project: "A11y approvals",
        title: "A11y approval",
        provider: "codex",
        runtimeMode: "approval-required",
        workspace: "local",
      });
      stack.providers.openai.enqueue(
        execCommandReply("echo A11Y-OK"),
        responsesTextReply("The command ran."),
      );
      await client.thread.sendMessage.mutate({ threadId: asking.threadId, text: "run it" });
      await check(
        "thread-approval",
        `/threads/${asking.threadId}`,
        ".conversation .approval button",
      );
      await saveScreenshot(page, "a11y-done");
    },
    PAGES_TIMEOUT,
  );

  it("no serious or critical axe findings on any of them", () => {
    const failing = Object.entries(findings).filter(([, list]) => list.length > 0);
    expect(Object.keys(findings)).toHaveLength(10);
    expect(failing, JSON.stringify(failing, null, 2)).toEqual([]);
  });
});
