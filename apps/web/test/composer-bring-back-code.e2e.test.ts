import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { describe, expect, it } from "vitest";
import { execCommandReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";

/**
 * Issue 26 item 4 in the browser: the composer's bring-back offers a fork's code only. Its files
 * land in the person's folder with no message, run or handoff review, the thread shows what came
 * back, and a second fork that clashes with the person's own edit is refused with the file named
 * and nothing changed (real Codex on a fake model, real git worktrees).
 */
describe.runIf(chromiumAvailable)(
  "composer: bring back a fork's code only (Chromium, real API)",
  () => {
    const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

    it("issue 26: code only brings the files without a run; a clash is shown before anything is applied", async () => {
      const { stack, page } = e2e;
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const workspace = stack.providers.workspace;
      const { projectId } = await client.project.create.mutate({
        name: "Code only",
        workspaceRoot: workspace,
      });
      const { threadId } = await client.thread.create.mutate({
        projectId,
        title: "Code only main",
        provider: "codex",
        runtimeMode: "full-access",
        workspace: "local",
      });
      const settled = async (id: string) =>
        expect
          .poll(
            async () => {
              const detail = await client.thread.detail.query({ threadId: id as never });
              return detail.runs.length > 0 && detail.runs.every((r) => r.status === "completed");
            },
            { timeout: 90_000 },
          )
          .toBe(true);
      stack.providers.openai.enqueue(responsesTextReply("ready"));
      await client.thread.sendMessage.mutate({ threadId, text: "get ready" });
      await settled(threadId);

      /** A fork in its own worktree whose Codex run wrote `file` with `content`. */
      const forkWriting = async (file: string, content: string) => {
        const { threadId: forkId } = await client.thread.fork.mutate({
          threadId,
          isolatedWorkspace: true,
        });
        stack.providers.openai.enqueue(
          execCommandReply(`printf '${content}\\n' > ${file}`),
          responsesTextReply(`wrote ${file}`),
        );
        await client.thread.sendMessage.mutate({ threadId: forkId, text: `write ${file}` });
        await settled(forkId);
        return forkId;
      };
      const first = await forkWriting("from-fork.txt", "fork code");
      const runsBefore = (await client.thread.detail.query({ threadId })).runs.length;

      await page.goto(`${stack.web.url}/threads/${threadId}`);
      await page.getByLabel("Bring back from fork").selectOption(first);
      await page.getByLabel("What to bring back").selectOption("code");
      // No handoff to review: nothing of the conversation is carried.
      expect(await page.locator(".review-handoff-toggle").count()).toBe(0);
      await saveScreenshot(page, "composer-bring-back-code-only");
      await page.getByRole("button", { name: "Bring back the code" }).click();
      await expect
        .poll(() => existsSync(path.join(workspace, "from-fork.txt")), { timeout: 60_000 })
        .toBe(true);
      expect(readFileSync(path.join(workspace, "from-fork.txt"), "utf8")).toBe("fork code\n");
      await expect
        .poll(() => text(page.locator(".git-marker[data-git-action='code_brought_back']")), {
          timeout: 30_000,
        })
        // The marker label is set in capitals by CSS: innerText reads it so.
        .toMatch(
          /brought back the code of "fork of code only main at run 1" \(1 file, no conversation\)/i,
        );
      expect((await client.thread.detail.query({ threadId })).runs).toHaveLength(runsBefore);

      // The person edits README.md; a fork that changed it too is refused, naming it.
      const second = await forkWriting("README.md", "# fork");
      writeFileSync(path.join(workspace, "README.md"), "# mine\n");
      await page.reload();
      await page.getByLabel("Bring back from fork").selectOption(second);
      await page.getByLabel("What to bring back").selectOption("code");
      await page.getByRole("button", { name: "Bring back the code" }).click();
      const conflict = page.locator(".merge-conflict");
      await expect.poll(() => text(conflict), { timeout: 60_000 }).toContain("README.md");
      expect(readFileSync(path.join(workspace, "README.md"), "utf8")).toBe("# mine\n");
      await saveScreenshot(page, "composer-bring-back-code-conflict");
    }, 600_000);
  },
);
