import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  anthropicBashReply,
  anthropicTextReply,
  anthropicToolUseReply,
  execCommandReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";
import { newThread, openThread, sendAndSeeReplies } from "./support/threads.ts";

/**
 * B16 in the browser (issue 29 item 2): tool cards say what ran. Real Claude: a Read is a read
 * of its file (relative path, no "0 matches"), a failing Bash shows its exit code. Real Codex:
 * the `/bin/bash -lc '…'` wrapper is unwrapped, the exact command still in the card.
 */
describe.runIf(chromiumAvailable)("tool cards (Chromium, real Claude and Codex)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B16: Claude's Read is a read, its failing Bash shows exit 3; Codex's shell wrapper is unwrapped", async () => {
    const { stack, page } = e2e;
    const workspace = stack.providers.workspace;
    writeFileSync(join(workspace, "notes.md"), "# notes\n");
    const claude = await newThread(stack, {
      project: "Tools",
      // The fake model names files in the project's own folder: its threads work there.
      projectSettings: { threadWorkspace: "local" },
      title: "Claude tools",
      provider: "claude",
      runtimeMode: "full-access",
    });
    const { client, projectId } = claude;
    stack.providers.anthropic.enqueue(
      anthropicToolUseReply("Read", { file_path: join(workspace, "notes.md") }),
      anthropicBashReply("echo failing >&2; exit 3"),
      anthropicTextReply("CLAUDE-DONE"),
    );
    await openThread(page, stack, claude.threadId);
    await sendAndSeeReplies(page, "read then run", ["CLAUDE-DONE"], 90_000);

    const read = page.locator(".item-file_search").first();
    const readText = await text(read);
    expect(readText).toMatch(/read/i);
    expect(readText).toContain("./notes.md");
    expect(readText).not.toMatch(/match/i);
    expect(readText).not.toContain(workspace);
    const bash = page.locator(".item-command_execution").first();
    await expect.poll(() => text(bash)).toContain("exit 3");
    expect(await bash.locator(".badge-failed", { hasText: "exit 3" }).count()).toBe(1);
    await saveScreenshot(page, "tool-cards-claude");

    const codex = await client.thread.create.mutate({
      projectId,
      title: "Codex tools",
      provider: "codex",
      runtimeMode: "full-access",
    });
    stack.providers.openai.enqueue(
      execCommandReply("echo wrapped-hi"),
      responsesTextReply("CODEX-DONE"),
    );
    await openThread(page, stack, codex.threadId);
    await sendAndSeeReplies(page, "run a command", ["CODEX-DONE"], 90_000);
    const command = page.locator(".item-command_execution").first();
    const input = command.locator(".command-input");
    await expect.poll(() => text(input)).toBe("$ echo wrapped-hi");
    // The exact command the runtime ran is one click away: the card's title and its body.
    const exact = (await input.getAttribute("title")) ?? "";
    expect(exact).toMatch(/^\/bin\/bash -lc 'echo wrapped-hi'$/);
    await expect.poll(() => text(command)).toContain("exit 0");
    await command.locator("summary").first().click();
    await expect.poll(() => text(command.locator(".exact-command"))).toContain(exact);
    await saveScreenshot(page, "tool-cards-codex");
  });
});
