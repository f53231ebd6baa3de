import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { ARTIFACTS_DIR, CHROMIUM_PATH } from "./paths.ts";

/** The flags Debian's Chromium needs on these machines (docs: ENVIRONMENT.md). */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const chromiumFound = existsSync(CHROMIUM_PATH);
const missing =
  `no Chromium at ${CHROMIUM_PATH}. Install Debian's chromium (apt-get install chromium) or set ` +
  "SKEIN_CHROMIUM to run the browser suite.";

/**
 * Whether the browser suite runs. Under CI it always does: a missing Chromium is then a failure
 * of every browser test (launchBrowser throws), never a skip. Elsewhere it is skipped, loudly.
 */
export const chromiumAvailable = chromiumFound || process.env.CI === "true";

if (!chromiumFound) {
  if (chromiumAvailable) console.error(`\n[apps/web e2e] FAILING: ${missing}\n`);
  else console.warn(`\n[apps/web e2e] SKIPPED: ${missing}\n`);
}

export function launchBrowser(): Promise<Browser> {
  if (!chromiumFound) return Promise.reject(new Error(`browser tests cannot run: ${missing}`));
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

/**
 * A browser with a profile on disk (not off the record): what Chromium requires before it calls
 * an app installable. Close the context to end it.
 */
export function launchPersistentBrowser(userDataDir: string): Promise<BrowserContext> {
  if (!chromiumFound) return Promise.reject(new Error(`browser tests cannot run: ${missing}`));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
}

/** Screenshots and accessibility snapshots go to apps/web/test-artifacts/ (gitignored). */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

const INTERACTIVE_ROLES = new Set([
  "button",
  "link",
  "textbox",
  "searchbox",
  "combobox",
  "listbox",
  "checkbox",
  "radio",
  "switch",
  "slider",
  "spinbutton",
  "tab",
  "menuitem",
  "option",
  "DisclosureTriangle",
]);

type AxNode = {
  nodeId: string;
  ignored: boolean;
  role?: { value?: string };
  name?: { value?: string };
};

export type UnnamedElement = { role: string; nodeId: string };

/**
 * Walks Chromium's full accessibility tree (CDP) and returns every interactive node without an
 * accessible name. Also writes the page's ARIA snapshot next to the screenshots.
 */
export async function unnamedInteractiveElements(
  page: Page,
  name: string,
): Promise<{ interactive: number; unnamed: UnnamedElement[] }> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(
    path.join(ARTIFACTS_DIR, `${name}.aria.txt`),
    await page.locator("body").ariaSnapshot(),
  );
  const session = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await session.send("Accessibility.getFullAXTree")) as { nodes: AxNode[] };
    const interactive = nodes.filter(
      (node) => !node.ignored && INTERACTIVE_ROLES.has(node.role?.value ?? ""),
    );
    const unnamed = interactive
      .filter((node) => (node.name?.value ?? "").trim() === "")
      .map((node) => ({ role: node.role?.value ?? "?", nodeId: node.nodeId }));
    return { interactive: interactive.length, unnamed };
  } finally {
    await session.detach();
  }
}

/** Polls `check` until it returns a value that is not false/undefined, or fails after `ms`. */
export async function waitFor<T>(
  check: () => Promise<T | false | undefined | null>,
  what: string,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined && value !== null) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${last}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
