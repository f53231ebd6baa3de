import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolveCodexBinary } from "../../../packages/adapters-codex/src/config/resolve-binary.ts";
import { messageTexts, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { seriousA11yViolations } from "./support/axe.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { assistantTexts, sendMessage, threadIdOf } from "./support/ui.ts";

/** B6 in the browser: a Codex thread the person made outside Skein is adopted and continued. */
describe.runIf(chromiumAvailable)("adopt a session (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ timeoutMs: 60_000 });

  it("B6: Adopt session lists the folder's Codex thread; adopted, it shows its history and the next message resumes it", async () => {
    const { stack, page } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const { projectId } = await client.project.create.mutate({
      name: "Mine",
      workspaceRoot: stack.providers.workspace,
    });
    stack.providers.openai.enqueue(responsesTextReply("OUTSIDE-ANSWER"));
    // The person's own terminal: `codex exec` in the project's folder, under their CODEX_HOME.
    const exec = promisify(execFile)(
      resolveCodexBinary(),
      ["exec", "--skip-git-repo-check", "started in my terminal"],
      {
        cwd: stack.providers.workspace,
        env: { ...process.env, ...stack.providers.env },
        timeout: 60_000,
      },
    );
    // It would wait for more prompt on an open stdin.
    exec.child.stdin?.end();
    await exec;

    await page.goto(`${stack.web.url}/projects/${projectId}/new`);
    await page.getByRole("button", { name: "Adopt session" }).click();
    const dialog = page.getByRole("dialog", { name: "Adopt session" });
    const adopt = dialog.getByRole("button", { name: "Adopt started in my terminal" });
    await adopt.waitFor();
    expect(await seriousA11yViolations(page, "adopt-session-dialog")).toEqual([]);
    await adopt.click();
    await page.waitForURL(/\/threads\/[^/]+$/);
    await page.locator(".conversation").waitFor();
    await expect.poll(() => assistantTexts(page)).toContain("OUTSIDE-ANSWER");
    // The adopted turn reads as a run of its own, marked as read from the session's history.
    const badge = page.locator(".run-header .badge", { hasText: "imported" });
    await expect.poll(() => badge.count()).toBe(1);

    stack.providers.openai.enqueue(responsesTextReply("CONTINUED-IN-SKEIN"));
    await sendMessage(page, "continue here");
    await expect
      .poll(() => assistantTexts(page), { timeout: 90_000 })
      .toContain("CONTINUED-IN-SKEIN");
    await saveScreenshot(page, "adopted-session-continued");

    // Codex resumed its own thread: the model saw the outside turn before the new message.
    const request = stack.providers.openai.requests.find((r) =>
      messageTexts(r, "user").includes("continue here"),
    )!;
    const users = messageTexts(request, "user").filter((t) => !t.startsWith("<"));
    expect(users).toEqual(["started in my terminal", "continue here"]);
    const detail = await client.thread.detail.query({ threadId: threadIdOf(page) });
    expect(detail.runs.map((run) => [run.provider, run.contextHandoffId])).toEqual([
      ["codex", null],
      ["codex", null],
    ]);
  });
});
