import type { Page } from "playwright-core";
import { saveScreenshot } from "./browser.ts";

const KEPT_MESSAGES = 30;
const TEXT_CHARS = 1_500;

/**
 * What a browser test's page said while it ran (console errors, uncaught errors, failed
 * requests), kept so a failing test can print it: a CI log is often all there is to go on.
 */
export function watchPage(page: Page): { report(testName: string): Promise<string> } {
  const messages: string[] = [];
  const keep = (line: string) => {
    messages.push(`${new Date().toISOString()} ${line}`);
    if (messages.length > KEPT_MESSAGES) messages.shift();
  };
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") {
      keep(`console.${message.type()}: ${message.text()}`);
    }
  });
  page.on("pageerror", (error) => keep(`page error: ${error.message}`));
  page.on("requestfailed", (request) =>
    keep(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`),
  );
  return {
    async report(testName) {
      const shot = await saveScreenshot(page, `failed-${slug(testName)}`).catch(
        (error: Error) => `no screenshot (${error.message})`,
      );
      const text = await page
        .locator("body")
        // biome-ignore lint/performance/useDomNodeTextContent: what a reader sees, not the scripts
        .innerText({ timeout: 2_000 })
        .catch((error: Error) => `no text (${error.message})`);
      return [
        `[apps/web e2e] FAILED "${testName}" at ${page.url()}`,
        `screenshot: ${shot}`,
        `page text: ${(text ?? "").replace(/\s+/g, " ").slice(0, TEXT_CHARS)}`,
        ...(messages.length ? ["the page said:", ...messages] : ["the page logged no errors"]),
      ].join("\n");
    },
  };
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 60);
}
