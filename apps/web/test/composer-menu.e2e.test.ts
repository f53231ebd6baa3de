import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { messageTexts, responsesTextReply } from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import type { Stack } from "./support/stack.ts";
import { assistantTexts, sendMessage } from "./support/ui.ts";
import { newThread, openThread } from "./support/threads.ts";

/** What an element says, spaces at its ends aside (textContent: it renders no layout). */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? "").trim();
}

/** A real 1×1 PNG. */
const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** The model the fake OpenAI server was asked for with the user message `text`. */
function modelAskedFor(stack: Stack, text: string): unknown {
  const request = stack.providers.openai.requests.find((body) =>
    messageTexts(body, "user").some((message) => message.includes(text)),
  );
  return request?.model;
}

/** Issue 29 item 4, the composer as a person uses it: Chromium, the real API, real Codex. */
describe.runIf(chromiumAvailable)("composer menus (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ timeoutMs: 60_000 });

  it("the model menu lists the provider's catalog by name, and the header names the model that ran", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Models",
      title: "Model thread",
      provider: "codex",
    });
    const catalog = await client.provider.models.query({ provider: "codex" });
    const fallback = catalog.find((m) => m.isDefault);
    const other = catalog.find((m) => !m.isDefault && m.displayName.trim() !== "");
    expect(fallback).toBeDefined();
    expect(other).toBeDefined();
    await openThread(page, stack, threadId);

    // A menu (a select), not a free-text box: one entry per catalog model, by its display name.
    const menu = page.getByRole("combobox", { name: "Model" });
    // The catalog is read from the runtime once per page: it can take seconds on a loaded machine.
    await expect
      .poll(() => menu.locator("option").allInnerTexts(), { timeout: 30_000 })
      .toEqual([
        `Default · ${fallback!.displayName}`,
        ...catalog.map((m) => m.displayName.trim() || m.id),
      ]);

    // No model named: the runtime runs its default, and the header and run say which.
    stack.providers.openai.enqueue(responsesTextReply("ON THE DEFAULT"));
    await sendMessage(page, "which model are you");
    await expect.poll(() => assistantTexts(page), { timeout: 90_000 }).toContain("ON THE DEFAULT");
    expect(modelAskedFor(stack, "which model are you")).toBe(fallback!.id);
    const meta = page.locator(".thread-meta");
    await expect
      .poll(() => textOf(meta), { timeout: 30_000 })
      .toContain(`On Codex · ${fallback!.displayName}`);
    expect(await textOf(meta)).not.toContain("default model");
    await expect
      .poll(() => textOf(page.locator(".run-header .provider-chip").first()), {
        timeout: 30_000,
      })
      .toBe(`Codex · ${fallback!.displayName}`);

    // Picking another model by name sends its id; the run and header name it.
    await menu.selectOption(other!.id);
    // Codex may first compact for the new model (a request of its own), so the run is awaited by
    // its status rather than by a scripted reply.
    await sendMessage(page, "and now which");
    await expect
      .poll(
        async () => (await client.thread.detail.query({ threadId })).runs.map((r) => r.status),
        { timeout: 90_000 },
      )
      .toEqual(["completed", "completed"]);
    expect(modelAskedFor(stack, "and now which")).toBe(other!.id);
    await expect
      .poll(() => textOf(page.locator(".run-header .provider-chip").nth(1)), {
        timeout: 30_000,
      })
      .toBe(`Codex · ${other!.displayName}`);
    await expect
      .poll(() => textOf(meta), { timeout: 30_000 })
      .toContain(`On Codex · ${other!.displayName}`);
    await expect.poll(() => menu.inputValue(), { timeout: 30_000 }).toBe(other!.id);
    await saveScreenshot(page, "composer-model-menu");
  });

  it("the attach button uploads a picked image, shows it as a thumbnail, and the sent message shows no missing glyph", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Attach",
      title: "Attach thread",
      provider: "codex",
    });
    await openThread(page, stack, threadId);
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach files" }).click();
    await (await chooser).setFiles({
      name: "dot.png",
      mimeType: "image/png",
      buffer: Buffer.from(PNG_BASE64, "base64"),
    });
    const chips = page.getByRole("list", { name: "Attachments" });
    const thumb = chips.getByRole("img", { name: "Preview of dot.png" });
    // The thumbnail is the picked image itself, decoded by the browser (a broken one is 0 wide).
    await expect
      .poll(() => thumb.evaluate((img) => (img as HTMLImageElement).naturalWidth), {
        timeout: 30_000,
      })
      .toBe(1);
    expect(await textOf(chips.getByRole("button", { name: "Remove dot.png" }))).toBe("");
    await saveScreenshot(page, "composer-attach-thumbnail");

    stack.providers.openai.enqueue(responsesTextReply("GOT THE DOT"));
    await sendMessage(page, "here is a dot");
    await expect.poll(() => assistantTexts(page), { timeout: 90_000 }).toContain("GOT THE DOT");
    const sent = JSON.stringify(
      stack.providers.openai.requests.find((r) =>
        messageTexts(r, "user").some((m) => m.includes("here is a dot")),
      )?.input,
    );
    expect(sent).toContain(PNG_BASE64);
    // The user message names the file with an icon, not an emoji a font may lack.
    const shown = page.locator(".user-message .attachments li").first();
    expect(await textOf(shown)).toBe("dot.png");
    expect(await shown.locator("svg").count()).toBe(1);
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.turnItems.find((i) => i.type === "user_message")).toMatchObject({
      attachments: [{ name: "dot.png", mimeType: "image/png" }],
    });
  });

  it("`/` opens the commands; each runs its action and is never sent as a message", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Slash",
      title: "Slash thread",
      provider: "codex",
    });
    stack.providers.openai.enqueue(responsesTextReply("FIRST DONE"));
    await openThread(page, stack, threadId);
    await sendMessage(page, "first");
    await expect.poll(() => assistantTexts(page), { timeout: 90_000 }).toContain("FIRST DONE");
    const box = page.getByLabel("Message");
    const commands = page.getByRole("listbox", { name: "Commands" });

    await box.fill("/");
    await expect
      .poll(() => commands.getByRole("option").allInnerTexts())
      .toEqual([
        expect.stringContaining("/fork"),
        expect.stringContaining("/plan"),
        expect.stringContaining("/compact"),
        expect.stringContaining("/model"),
        expect.stringContaining("/switch"),
        expect.stringContaining("/review"),
      ]);
    await saveScreenshot(page, "composer-slash-commands");
    // Esc closes the list; the text stays as typed.
    await box.press("Escape");
    await commands.waitFor({ state: "detached" });
    expect(await box.inputValue()).toBe("/");

    const plan = page.getByLabel("Plan mode");
    expect(await plan.isChecked()).toBe(false);
    await box.fill("/pl");
    await box.press("Enter");
    await expect.poll(() => plan.isChecked()).toBe(true);
    expect(await box.inputValue()).toBe("");

    await box.fill("/mo");
    await box.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Model");
    await box.fill("/sw");
    await box.press("Tab");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Provider");

    // /compact asks the provider to compact now: a compaction run is recorded.
    stack.providers.openai.enqueue(responsesTextReply("SUMMARY"));
    await box.fill("/compact");
    await box.press("Enter");
    await expect
      .poll(
        async () => (await client.thread.detail.query({ threadId })).runs.some((r) => r.compact),
        { timeout: 30_000 },
      )
      .toBe(true);
    // Arrow keys choose: from the top, down five is /review.
    await box.fill("/");
    for (let i = 0; i < 5; i++) await box.press("ArrowDown");
    await box.press("Enter");
    await page.waitForURL(`**/threads/${threadId}/review`);

    // None of it was sent as a message: besides "first", only the compaction run's own record.
    const detail = await client.thread.detail.query({ threadId });
    expect(detail.turnItems.filter((i) => i.type === "user_message").map((i) => i.text)).toEqual([
      "first",
      "/compact",
    ]);

    // /fork (clicked) forks from the latest completed run and opens the fork.
    await openThread(page, stack, threadId);
    await page.getByLabel("Message").fill("/fo");
    await commands.getByRole("option", { name: /\/fork/ }).click();
    await page.waitForURL(
      (url) => /\/threads\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith(threadId),
    );
    const forkId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
    const fork = await client.thread.detail.query({ threadId: forkId as never });
    expect(fork.thread.lineage?.parentThreadId).toBe(threadId);
  });

  it("`@` searches the thread's workspace and inserts the picked file's path", async () => {
    const { stack, page } = e2e;
    // Committed: a thread's own worktree is checked out from the workspace's HEAD.
    mkdirSync(path.join(stack.providers.workspace, "e2e-mentions"), { recursive: true });
    writeFileSync(path.join(stack.providers.workspace, "e2e-mentions", "target-file.ts"), "x\n");
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
        cwd: stack.providers.workspace,
      });
    git("add", "e2e-mentions");
    git("commit", "-qm", "a file to mention");
    const { threadId } = await newThread(stack, {
      project: "Mentions",
      title: "Mention thread",
      provider: "codex",
    });
    await openThread(page, stack, threadId);
    const box = page.getByLabel("Message");
    await box.fill("look at @target-fi");
    const files = page.getByRole("listbox", { name: "Files" });
    await expect
      .poll(() => files.getByRole("option").allInnerTexts(), { timeout: 30_000 })
      .toEqual(["e2e-mentions/target-file.ts"]);
    await saveScreenshot(page, "composer-file-mention");
    await box.press("Enter");
    expect(await box.inputValue()).toBe("look at @e2e-mentions/target-file.ts ");
    await files.waitFor({ state: "detached" });

    // A query matching nothing says so; the message then goes as typed.
    await box.pressSequentially("and @zzzz-nothing");
    await expect.poll(() => textOf(files), { timeout: 30_000 }).toBe("No matching file");
    stack.providers.openai.enqueue(responsesTextReply("LOOKED"));
    await box.press("Escape");
    await box.press("Enter");
    await expect.poll(() => assistantTexts(page), { timeout: 90_000 }).toContain("LOOKED");
    expect(
      stack.providers.openai.requests.some((r) =>
        messageTexts(r, "user").some((m) =>
          m.includes("look at @e2e-mentions/target-file.ts and @zzzz-nothing"),
        ),
      ),
    ).toBe(true);
  });

  it("the context meter shows how full the window is, from the usage the run recorded", async () => {
    const { stack, page } = e2e;
    const { client, threadId } = await newThread(stack, {
      project: "Context",
      title: "Context thread",
      provider: "codex",
    });
    await openThread(page, stack, threadId);
    const meter = page.getByRole("meter", { name: "Context window used" });
    // No run yet: no figure to show, so no meter.
    expect(await meter.count()).toBe(0);
    stack.providers.openai.enqueue(responsesTextReply("MEASURED"));
    await sendMessage(page, "fill some context");
    await expect.poll(() => assistantTexts(page), { timeout: 90_000 }).toContain("MEASURED");
    await expect
      .poll(async () => (await client.thread.detail.query({ threadId })).runs[0]?.status, {
        timeout: 30_000,
      })
      .toBe("completed");
    const usage = (await client.thread.detail.query({ threadId })).runs[0]?.usage;
    // Codex's reading, recorded on the run: the context filled and the window's size.
    expect(usage?.contextTokens).toBeGreaterThan(0);
    expect(usage?.contextWindow).toBeGreaterThan(usage?.contextTokens ?? 0);
    await meter.waitFor();
    expect(await meter.getAttribute("value")).toBe(String(usage!.contextTokens));
    expect(await meter.getAttribute("max")).toBe(String(usage!.contextWindow));
    const percent = Math.round((usage!.contextTokens! / usage!.contextWindow!) * 100);
    const shown = percent === 0 ? "<1" : String(percent);
    expect(await textOf(page.locator(".context-meter"))).toBe(`${shown}% context`);
    await saveScreenshot(page, "composer-context-meter");
  });
});
