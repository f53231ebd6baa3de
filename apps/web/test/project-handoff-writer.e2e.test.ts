import { createSkeinClient } from "@skein/client";
import type { AppRouter } from "@skein/contract";
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { text } from "./support/ui.ts";

/**
 * Issue 25 item 3 in the browser: the project settings say who writes a handoff when the person
 * does not choose on the handoff itself; Skein by default, the source agent when chosen.
 */
describe.runIf(chromiumAvailable)(
  "project settings: who writes handoffs (Chromium, real API)",
  () => {
    const e2e = useE2eStack({ viewport: { width: 1400, height: 900 } });

    it("Skein by default; choosing the source agent is saved and shown again", async () => {
      const { stack, page } = e2e;
      const client = createSkeinClient<AppRouter>({ url: stack.api.url });
      const { projectId } = await client.project.create.mutate({
        name: "Handoffs",
        workspaceRoot: stack.providers.workspace,
      });
      const settingsOf = async () =>
        (await client.project.list.query()).projects.find((p) => p.id === projectId)?.settings;

      await page.goto(stack.web.url);
      await page.getByRole("link", { name: "New thread in Handoffs" }).first().click();
      await page.getByText("Project settings: thread workspaces and handoffs").click();
      const skein = page.getByRole("radio", { name: /Skein, from the thread's runs/ });
      const agent = page.getByRole("radio", {
        name: /The source agent, on a fork of its own thread/,
      });
      await expect.poll(() => skein.isChecked()).toBe(true);
      await agent.check();
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect.poll(() => text(page.locator(".project-settings"))).toContain("Saved.");
      expect((await settingsOf())?.handoffWriter).toBe("provider");

      await page.reload();
      await page.getByText("Project settings: thread workspaces and handoffs").click();
      await expect.poll(() => agent.isChecked()).toBe(true);
      expect(await skein.isChecked()).toBe(false);
    });
  },
);
