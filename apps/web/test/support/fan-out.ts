import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import {
  anthropicBashReply,
  anthropicTextReply,
  execCommandReply,
  responsesTextReply,
} from "../../../../tooling/fake-models/src/index.ts";
import type { Stack } from "./stack.ts";
import { type NewThread, newThread, runsCompleted } from "./threads.ts";

/**
 * The person's main thread for a fan-out: Codex with full access, in their own folder (a
 * bring-back lands there; forks get worktrees), its first run done so forks have a point.
 */
export async function mainThreadReady(
  stack: Stack,
  names: { project: string; title: string },
): Promise<NewThread> {
  const made = await newThread(stack, {
    ...names,
    provider: "codex",
    runtimeMode: "full-access",
    workspace: "local",
  });
  stack.providers.openai.enqueue(responsesTextReply("ready"));
  await made.client.thread.sendMessage.mutate({ threadId: made.threadId, text: "get ready" });
  await runsCompleted(made.client, made.threadId);
  return made;
}

export type FannedOut = {
  /** The comparison table's rows. */
  rows: Locator;
  codex: { title: string; row: Locator };
  claude: { title: string; row: Locator };
};

/**
 * B9 from the Parallel page: one task fanned out to a Codex fork and a Claude fork of the thread
 * titled `source` (its first run done), the Codex fork at `codexEffort` if given. Codex's fake model writes `# codex` to README.md and adds
 * codex.txt; Claude's writes `# claude` to README.md. Waits until both completed and the table
 * shows README.md in both; each row is found by the title the domain gives it (B16: siblings
 * numbered apart, in target order), since rows follow the forks' creation, which runs side by side.
 */
export async function fanOutToCodexAndClaude(
  page: Page,
  stack: Stack,
  threadId: string,
  source: string,
  options: { codexEffort?: string } = {},
): Promise<FannedOut> {
  stack.providers.openai.enqueue(
    execCommandReply("printf '# codex\\n' > README.md && printf 'x\\n' > codex.txt"),
    responsesTextReply("codex edited README.md"),
  );
  stack.providers.anthropic.enqueue(
    anthropicBashReply("printf '# claude\\n' > README.md"),
    anthropicTextReply("claude edited README.md"),
  );
  await page.goto(`${stack.web.url}/threads/${threadId}/parallel`);
  await page.getByLabel("Task for every fork").fill("edit the readme");
  await page.getByLabel("Provider of fork 1").selectOption("codex");
  await page.getByLabel("Provider of fork 2").selectOption("claude");
  if (options.codexEffort) {
    // The levels come from Codex's own catalog (provider.models), read when the row is drawn.
    const effort = page.getByLabel("Effort of fork 1");
    await effort.locator(`option[value="${options.codexEffort}"]`).waitFor({ state: "attached" });
    await effort.selectOption(options.codexEffort);
  }
  await page.getByRole("button", { name: "Fan out to 2" }).click();

  const rows = page.locator(".fork-table tbody tr");
  await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(2);
  await expect
    .poll(async () => (await rows.locator(".fork-status").allInnerTexts()).join(","), {
      timeout: 120_000,
    })
    .toBe("completed,completed");
  await expect
    .poll(() => rows.locator("li[data-path='README.md']").count(), { timeout: 30_000 })
    .toBe(2);
  const codex = `fork of ${source} at run 1`;
  const claude = `fork of ${source} at run 1 (2)`;
  return {
    rows,
    codex: { title: codex, row: rows.filter({ hasText: codex }).filter({ hasNotText: claude }) },
    claude: { title: claude, row: rows.filter({ hasText: claude }) },
  };
}
