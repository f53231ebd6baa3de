import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { execCommandReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { fanOutToCodexAndClaude, mainThreadReady } from "./support/fan-out.ts";
import { sendThroughReview } from "./support/compose.ts";
import { text } from "./support/ui.ts";
import { runsCompleted } from "./support/threads.ts";

/**
 * B9 in the browser: a task fanned out to a Codex and a Claude fork (real runtimes, fake models,
 * real git worktrees), compared side by side with the file both touched flagged; one fork comes
 * back with its files, and the other, clashing with it, is refused with the file named and the
 * workspace left as it was.
 */
describe.runIf(chromiumAvailable)("parallel agents (Chromium, real API, Codex and Claude)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B9: fan out → compare with an overlap warning → bring one back → the clashing one is refused untouched", async () => {
    const { stack, page } = e2e;
    const workspace = stack.providers.workspace;
    const { client, threadId } = await mainThreadReady(stack, {
      project: "Parallel",
      title: "Parallel main",
    });
    const settled = (id: string) => runsCompleted(client, id);

    const { codex, claude } = await fanOutToCodexAndClaude(page, stack, threadId, "Parallel main");
    const [CODEX, CLAUDE] = [codex.title, claude.title];
    const [codexRow, claudeRow] = [codex.row, claude.row];
    expect(await codexRow.locator("li[data-path='codex.txt']").count()).toBe(1);
    expect(await claudeRow.locator("li[data-path='codex.txt']").count()).toBe(0);
    await expect
      .poll(() => text(page.locator(".overlap-warning")), { timeout: 30_000 })
      .toContain("README.md");
    await saveScreenshot(page, "parallel-compare");

    // Codex's fork comes back: its files land here and its conversation is sent in one step.
    stack.providers.openai.enqueue(responsesTextReply("merged and checked"));
    await page.getByRole("button", { name: `Bring back ${CODEX}`, exact: true }).click();
    await expect
      .poll(() => text(page.locator(".notice")), { timeout: 60_000 })
      .toContain(`Brought back ${CODEX}: 2 files applied`);
    expect(readFileSync(path.join(workspace, "README.md"), "utf8")).toBe("# codex\n");
    expect(existsSync(path.join(workspace, "codex.txt"))).toBe(true);
    await settled(threadId);

    // Claude's fork changed README.md too: refused file by file, nothing touched here.
    await page.getByRole("button", { name: `Bring back ${CLAUDE}`, exact: true }).click();
    const conflict = page.locator(".merge-conflict");
    await expect.poll(() => text(conflict), { timeout: 60_000 }).toContain("README.md");
    expect(readFileSync(path.join(workspace, "README.md"), "utf8")).toBe("# codex\n");
    await saveScreenshot(page, "parallel-conflict");
    expect((await client.thread.detail.query({ threadId })).runs).toHaveLength(2);

    // The clash handed to this thread's agent: a bring-back of the conversation only, asking the
    // agent to merge the fork's branch and naming the clashing file.
    stack.providers.openai.enqueue(responsesTextReply("I will merge it"));
    await page.getByRole("button", { name: "Hand to the agent to merge" }).click();
    await expect
      .poll(() => text(page.locator(".notice")), { timeout: 60_000 })
      .toContain("Asked this thread's agent");
    await settled(threadId);
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.runs).toHaveLength(3);
    const asked = detail.turnItems.filter((item) => item.type === "user_message").at(-1);
    expect(asked && "text" in asked ? asked.text : "").toMatch(/README\.md.*Merge branch skein\//s);
    expect(readFileSync(path.join(workspace, "README.md"), "utf8")).toBe("# codex\n");

    // Issue 26 item 4: from the composer, a fork's code comes back with its conversation (the
    // default), through the handoff review.
    stack.providers.openai.enqueue(
      execCommandReply("printf 'from the composer\\n' > composer.txt"),
      responsesTextReply("composer fork done"),
    );
    const fan = await client.thread.fanOut.mutate({
      threadId,
      text: "add composer.txt",
      targets: [{ provider: "codex" }],
      isolated: true,
    });
    const composerFork = fan.forks[0]!.threadId;
    await settled(composerFork);
    await page.goto(`${stack.web.url}/threads/${threadId}`);
    await page.getByLabel("Bring back from fork").selectOption(composerFork);
    expect(await page.getByLabel("What to bring back").inputValue()).toBe("both");
    stack.providers.openai.enqueue(responsesTextReply("composer bring-back checked"));
    await sendThroughReview(page, "bring the composer fork back");
    await expect
      .poll(() => existsSync(path.join(workspace, "composer.txt")), { timeout: 60_000 })
      .toBe(true);
    expect(readFileSync(path.join(workspace, "composer.txt"), "utf8")).toBe("from the composer\n");
    await settled(threadId);
  }, 600_000);
});
