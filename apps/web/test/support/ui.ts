import type { Locator, Page } from "playwright-core";

/** The thread id in the current URL (`/threads/<id>[/tab]`). */
export function threadIdOf(page: Page): string {
  const match = /\/threads\/([^/?#]+)/.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`not on a thread page: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/**
 * Types into the composer and presses Enter (the keyboard path a person uses). Waits until the
 * page shows no active run first: while one is active, Enter steers instead of sending.
 */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "Send", exact: true }).waitFor();
  const box = page.getByLabel("Message");
  await box.fill(text);
  await box.press("Enter");
  // The composer clears once the API recorded the run.
  await page.waitForFunction(
    () =>
      (document.querySelector("textarea[aria-label=Message]") as HTMLTextAreaElement | null)
        ?.value === "",
  );
}

/**
 * Follows the header's Approvals link and waits until the router has committed the page. A thread
 * page with a pending request shows its own Accept button, and until the URL changes a reload
 * (as the axe checks do) reloads the thread, dropping the navigation: so wait for the URL.
 */
export async function openApprovals(page: Page): Promise<void> {
  await page.getByRole("link", { name: /^Approvals/ }).click();
  await page.waitForURL((url) => url.pathname === "/approvals", { timeout: 60_000 });
}

export async function assistantTexts(scope: Page | Locator): Promise<string[]> {
  const texts = await scope.locator(".item-assistant_message .assistant-message").allInnerTexts();
  return texts.map((text) => text.trim());
}

/** Turn item ids in display order, as the conversation renders them. */
export async function itemIds(page: Page): Promise<string[]> {
  return page
    .locator(".conversation-scroll [data-item-id]")
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-item-id") ?? ""));
}

/** Opens a thread from the sidebar by its exact title. */
export async function openThreadByTitle(page: Page, title: string): Promise<void> {
  await page.locator(".sidebar").getByRole("link", { name: title, exact: true }).first().click();
  await page.waitForURL(/\/threads\/[^/]+$/);
  await page.locator(".conversation").waitFor();
}

/** Rendered text (layout-aware, like a reader sees it), not the raw DOM text. */
export function text(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText, not the DOM's
  return locator.innerText();
}
