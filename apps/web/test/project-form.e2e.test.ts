import path from "node:path";
import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";

/**
 * B4 in the browser: the new-project form explains a mistyped workspace path before any call
 * (the domain's rule, bundled into the page), and shows the API's refusal of a folder that does
 * not exist; neither creates a project.
 */
describe.runIf(chromiumAvailable)("new-project form validation (Chromium, real API)", () => {
  const calls: string[] = [];

  const e2e = useE2eStack();
  beforeAll(async () => {
    const { stack, page } = e2e;
    page.on("request", (request) => {
      if (request.url().includes("/trpc/project.create")) calls.push(request.url());
    });
    await page.goto(stack.web.url);
  });

  /** Submits the form and returns the alert once it says `expected` (or times out). */
  async function submit(root: string, expected: string): Promise<string> {
    const { page } = e2e;
    await page.getByLabel("Name", { exact: true }).fill("Typo");
    await page.getByLabel("Workspace root (absolute path)").fill(root);
    await page.getByRole("button", { name: "Create project" }).click();
    const alert = page.locator("form[aria-labelledby=new-project-heading] [role=alert]");
    await expect
      .poll(async () => ((await alert.count()) === 0 ? "" : await alert.textContent()), {
        timeout: 15_000,
      })
      .toContain(expected);
    return (await alert.textContent()) ?? "";
  }

  async function projectCount(): Promise<number> {
    const { stack } = e2e;
    const client = createSkeinClient<AppRouter>({ url: stack.api.url });
    return (await client.project.list.query()).projects.length;
  }

  it("a relative path is explained in the page, without calling the API", async () => {
    const before = await projectCount();
    await submit("code/my-repo", "is not absolute");
    expect(calls).toEqual([]);
    expect(await projectCount()).toBe(before);
  });

  it("a folder that does not exist is refused by the API, and the page says so", async () => {
    const { stack } = e2e;
    const before = await projectCount();
    const missing = path.join(stack.providers.workspace, "missing");
    const shown = await submit(missing, `The folder ${missing} does not exist.`);
    expect(shown).toContain("Create it or choose another folder.");
    expect(calls).toHaveLength(1);
    expect(await projectCount()).toBe(before);
  });
});
