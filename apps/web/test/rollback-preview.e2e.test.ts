import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { execCommandReply, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";
import { newThread } from "./support/threads.ts";

/**
 * Issue 26 item 3 (B14) in the browser: before a rollback is confirmed, the Checkpoints page
 * shows what each file the agent changed becomes, which of them the person changed since, and
 * that everything else stays; forced, a safety checkpoint appears that puts the person's
 * version back. Real Codex edits the files (fake model), real git holds the checkpoints.
 */
describe.runIf(chromiumAvailable)("rollback preview (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

  it("B14: the preview lists each agent file and the conflict; forced, a safety checkpoint restores the person's version", async () => {
    const { stack, page } = e2e;
    const workspace = stack.providers.workspace;
    const file = (name: string) => path.join(workspace, name);
    const { client, threadId } = await newThread(stack, {
      project: "Rollback preview",
      title: "Rollback preview thread",
      provider: "codex",
      runtimeMode: "full-access",
      // The person's own files sit next to the agent's here (issue 26: a local thread).
      workspace: "local",
    });
    const settled = (runs: number) =>
      expect
        .poll(
          async () => {
            const detail = await client.thread.detail.query({ threadId });
            return (
              detail.runs.length === runs &&
              detail.runs.every((r) => r.status === "completed") &&
              detail.checkpoints.length === runs
            );
          },
          { timeout: 90_000 },
        )
        .toBe(true);
    stack.providers.openai.enqueue(
      execCommandReply("printf 'one\\n' > agent.txt"),
      responsesTextReply("RUN-ONE"),
    );
    await client.thread.sendMessage.mutate({ threadId, text: "write agent.txt" });
    await settled(1);
    stack.providers.openai.enqueue(
      execCommandReply("printf 'two\\n' > agent.txt && printf 'x\\n' > extra.txt"),
      responsesTextReply("RUN-TWO"),
    );
    await client.thread.sendMessage.mutate({ threadId, text: "change it" });
    await settled(2);

    // The person's own work: a new file, and an edit to a file the agent made.
    writeFileSync(file("mine.txt"), "my notes\n");
    writeFileSync(file("extra.txt"), "the person's line\n");

    await page.goto(`${stack.web.url}/threads/${threadId}/checkpoints`);
    const oldest = page.getByRole("region", { name: "checkpoint after run 1" });
    await oldest.getByRole("button", { name: /^Roll back to/ }).click();
    const preview = oldest.getByLabel("Rollback preview");
    const listed = () =>
      preview
        .locator("li[data-path]")
        .evaluateAll((nodes) =>
          nodes.map((n) => `${n.getAttribute("data-path")}:${n.getAttribute("data-conflict")}`),
        );
    await expect.poll(listed, { timeout: 30_000 }).toEqual(["agent.txt:false", "extra.txt:true"]);
    expect(await text(preview)).toContain("Run 2 becomes rolled back");
    expect(await text(preview)).toMatch(/agent\.txt goes back to its content after run 1/);
    expect(await text(preview)).toMatch(/You changed extra\.txt after the agent last wrote it/);
    await saveScreenshot(page, "rollback-preview");
    // Nothing moved while previewing.
    expect(readFileSync(file("agent.txt"), "utf8")).toBe("two\n");

    await oldest.getByRole("button", { name: /^Roll back anyway/ }).click();
    await expect
      .poll(() => readFileSync(file("agent.txt"), "utf8"), { timeout: 30_000 })
      .toBe("one\n");
    expect(existsSync(file("extra.txt"))).toBe(false);
    expect(readFileSync(file("mine.txt"), "utf8")).toBe("my notes\n");

    const safety = page.getByRole("region", { name: /^safety checkpoint/ });
    await safety.waitFor({ timeout: 30_000 });
    await safety.getByRole("button", { name: /^Roll back to/ }).click();
    await expect
      .poll(
        () =>
          safety
            .getByLabel("Rollback preview")
            .locator("li[data-path]")
            .evaluateAll((nodes) => nodes.map((n) => n.getAttribute("data-path"))),
        { timeout: 30_000 },
      )
      .toEqual(["agent.txt", "extra.txt"]);
    await safety.getByRole("button", { name: "Confirm rollback" }).click();
    await expect
      .poll(() => existsSync(file("extra.txt")) && readFileSync(file("extra.txt"), "utf8"), {
        timeout: 30_000,
      })
      .toBe("the person's line\n");
    expect(readFileSync(file("agent.txt"), "utf8")).toBe("two\n");
    expect(readFileSync(file("mine.txt"), "utf8")).toBe("my notes\n");
  }, 600_000);
});
