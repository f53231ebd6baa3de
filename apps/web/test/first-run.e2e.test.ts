import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";

const text = async (locator: ReturnType<Page["locator"]>) =>
  (await locator.count()) === 0 ? "" : ((await locator.first().textContent()) ?? "");

/**
 * B15 in the browser, as a newcomer meets Skein: no project, neither runtime signed in (every
 * model URL a dead loopback port). The home page says each provider's state and what to do, with
 * "Check again"; the composer says it before anything is typed.
 */
describe.runIf(chromiumAvailable)("first run (Chromium, real API, signed-out runtimes)", () => {
  const statusCalls: string[] = [];

  const e2e = useE2eStack({ signedOut: true });
  beforeAll(async () => {
    const { stack, page } = e2e;
    page.on("request", (request) => {
      if (request.url().includes("provider.status")) statusCalls.push(request.url());
    });
    await page.goto(stack.web.url);
  });

  it("B15 the home page shows each provider's state and what to do, first", async () => {
    const { page } = e2e;
    const heading = page.getByRole("heading", { name: "Get started: providers" });
    await heading.waitFor();
    const codex = page.locator("tr[data-provider=codex]");
    const claude = page.locator("tr[data-provider=claude]");
    await expect.poll(() => text(codex), { timeout: 30_000 }).toContain("Not ready");
    expect(await text(codex)).toContain("codex login");
    await expect.poll(() => text(claude), { timeout: 30_000 }).toContain("Not ready");
    expect(await text(claude)).toContain("/login");
    expect(await text(claude)).toContain("ANTHROPIC_API_KEY");
    // First: above the (empty) project list.
    const order = await page.locator("h2").allTextContents();
    expect(order.indexOf("Get started: providers")).toBeLessThan(order.indexOf("Projects"));
  });

  it("B15 Check again asks the server to check now", async () => {
    const { page } = e2e;
    const before = statusCalls.length;
    await page.getByRole("button", { name: "Check again" }).click();
    await expect.poll(() => statusCalls.length, { timeout: 30_000 }).toBeGreaterThan(before);
    expect(decodeURIComponent(statusCalls.at(-1) ?? "")).toContain('"refresh":true');
    await expect
      .poll(() => text(page.locator("tr[data-provider=codex]")), { timeout: 30_000 })
      .toContain("codex login");
  });

  it("B15 the composer says the provider is not ready before the person types", async () => {
    const { stack, page } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    const { projectId } = await client.project.create.mutate({
      name: "First",
      workspaceRoot: stack.providers.workspace,
    });
    const { threadId } = await client.thread.create.mutate({ projectId, title: "Hello" });
    await page.goto(`${stack.web.url}/threads/${threadId}`);
    const notice = page.locator(".provider-not-ready");
    await expect.poll(() => text(notice), { timeout: 30_000 }).toContain("is not ready.");
    expect(await text(notice)).toMatch(/codex login|\/login/);
    expect(await page.getByLabel("Message").inputValue()).toBe("");
  });
});
