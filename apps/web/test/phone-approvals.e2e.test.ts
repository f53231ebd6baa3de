import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  anthropicTextReply,
  anthropicToolResults,
  anthropicToolUseReply,
  execCommandReply,
  responsesTextReply,
} from "../../../tooling/fake-models/src/index.ts";
import { chromiumAvailable, launchPersistentBrowser } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";

const PHONE = { width: 390, height: 844 };

/** A button a thumb can use: on screen, inside the phone's width, at least 44 px tall. */
async function reachable(page: Page, name: RegExp): Promise<void> {
  const button = page.getByRole("button", { name }).first();
  await button.scrollIntoViewIfNeeded();
  const box = await button.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
  expect(box!.height).toBeGreaterThanOrEqual(44);
}

/** Chromium's own verdict (CDP) on the app's install criteria, once its worker controls it. */
async function installable(phone: Page, webUrl: string): Promise<void> {
  await phone.goto(`${webUrl}/approvals`);
  await phone.getByText("Nothing is waiting for you.").waitFor({ timeout: 60_000 });
  const scope = await phone.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${webUrl}/`);
  const manifest = await phone.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    return link ? ((await (await fetch(link.href)).json()) as Record<string, unknown>) : null;
  });
  expect(manifest).toMatchObject({ display: "standalone", start_url: "/approvals" });
  const cdp = await phone.context().newCDPSession(phone);
  await expect
    .poll(
      async () => {
        const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
        return installabilityErrors.map((e) => e.errorId);
      },
      { timeout: 30_000 },
    )
    .toEqual([]);
}

/**
 * B20 on a phone (390×844): the app is installable (manifest + service worker, as Chromium judges
 * it), and the approvals screen approves a command (real Codex) and answers a question (real
 * Claude) in one hand; each answer reaches its agent, whose run then completes.
 */
describe.runIf(chromiumAvailable)("Approvals on a phone (Chromium 390×844, real API)", () => {
  const e2e = useE2eStack({ viewport: PHONE });

  it("B20: Chromium finds the app installable: a manifest with icons and a service worker controlling the page", async () => {
    const { stack } = e2e;
    // The shared page's context is off the record, where Chromium offers no install at all;
    // this check uses a profile on disk, as a person's browser has.
    const profile = mkdtempSync(path.join(tmpdir(), "skein-pwa-"));
    const browser = await launchPersistentBrowser(profile);
    try {
      const phone = await browser.newPage();
      await phone.setViewportSize(PHONE);
      await installable(phone, stack.web.url);
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it("B20: approve a command and answer a question from the phone; both runs complete", async () => {
    const { stack, page } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const { projectId } = await client.project.create.mutate({
      name: "Phone",
      workspaceRoot: stack.providers.workspace,
    });
    const codex = await client.thread.create.mutate({
      projectId,
      title: "Phone approval",
      provider: "codex",
      runtimeMode: "approval-required",
    });
    stack.providers.openai.enqueue(
      execCommandReply("echo PHONE-APPROVED"),
      responsesTextReply("ran it"),
    );
    await client.thread.sendMessage.mutate({ threadId: codex.threadId, text: "run it" });

    const claude = await client.thread.create.mutate({
      projectId,
      title: "Phone question",
      provider: "claude",
      runtimeMode: "approval-required",
    });
    const ask = {
      questions: [
        {
          question: "Which color should the button be?",
          header: "Color",
          multiSelect: false,
          options: [
            { label: "Red", description: "warm" },
            { label: "Blue", description: "cool" },
          ],
        },
      ],
    };
    stack.providers.anthropic.enqueue(
      anthropicToolUseReply("AskUserQuestion", ask, { id: "toolu_phone_ask" }),
      anthropicTextReply("Painting it Blue"),
    );
    await client.thread.sendMessage.mutate({ threadId: claude.threadId, text: "ask me" });

    await page.goto(`${stack.web.url}/approvals`);
    const accept = page.getByRole("button", { name: /^Accept: / });
    await accept.first().waitFor({ timeout: 90_000 });
    await reachable(page, /^Accept: /);
    await accept.first().click();

    const blue = page.getByRole("button", { name: /^Choose Blue for / });
    await blue.waitFor({ timeout: 90_000 });
    await blue.click();
    await reachable(page, /^Answer: /);
    await page.getByRole("button", { name: /^Answer: / }).click();

    await page.getByText("Nothing is waiting for you.").waitFor({ timeout: 90_000 });
    for (const threadId of [codex.threadId, claude.threadId]) {
      await expect
        .poll(async () => (await client.thread.detail.query({ threadId })).runs[0]?.status, {
          timeout: 90_000,
        })
        .toBe("completed");
    }
    const answered = stack.providers.anthropic.requests.flatMap((r) => anthropicToolResults(r));
    expect(JSON.stringify(answered)).toContain("Blue");
  });
});
