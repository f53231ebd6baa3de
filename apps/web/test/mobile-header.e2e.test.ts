import { describe, expect, it } from "vitest";
import { chromiumAvailable, saveScreenshot } from "./support/browser.ts";
import { useE2eStack } from "./support/e2e-stack.ts";
import { answeredCodexThread } from "./support/threads.ts";

const PHONE = { width: 390, height: 844 };

/**
 * Issue 29 item 9 in the browser (real Codex): on a 390×844 phone the thread's details and
 * actions fold into a menu, and the conversation gets at least 65% of the screen's height.
 */
describe.runIf(chromiumAvailable)("mobile thread header (Chromium, real API, real Codex)", () => {
  const e2e = useE2eStack({ viewport: PHONE });

  it("the header's actions are in a menu and the conversation keeps ≥ 65% of an 844 px screen", async () => {
    const { page } = e2e;
    await answeredCodexThread(
      e2e,
      { project: "Phone", title: "On the go" },
      { message: "hello from a phone", answer: "PHONE-ANSWER" },
    );

    const fork = page.getByRole("button", { name: "Fork latest" });
    expect(await fork.isVisible()).toBe(false);
    const height = await page
      .locator(".conversation-scroll")
      .evaluate((node) => node.getBoundingClientRect().height);
    expect(height).toBeGreaterThanOrEqual(0.65 * PHONE.height);
    await saveScreenshot(page, "mobile-thread");

    const menu = page.getByRole("button", { name: "Thread details and actions" });
    await menu.click();
    await fork.waitFor({ state: "visible" });
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await saveScreenshot(page, "mobile-thread-menu");
    await page.getByRole("button", { name: "Hide thread details and actions" }).click();
    await fork.waitFor({ state: "hidden" });
  });
});
