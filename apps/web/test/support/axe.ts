import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { ARTIFACTS_DIR } from "./paths.ts";

export type AxeFinding = { id: string; impact: string; help: string; targets: string[] };

/**
 * axe-core over the whole page (WCAG 2.x A/AA rules and best practices); returns the serious and
 * critical violations and writes the full report next to the screenshots.
 */
export async function seriousA11yViolations(page: Page, name: string): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(
    path.join(ARTIFACTS_DIR, `${name}.axe.json`),
    `${JSON.stringify(results.violations, null, 2)}\n`,
  );
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      targets: v.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
}

export type Theme = "light" | "dark";

/**
 * Reloads the page in the light theme, then the dark one (the stored choice the theme toggle
 * writes), and runs `each` once the page has settled in it; the system theme is restored after.
 */
export async function forEachTheme(page: Page, each: (theme: Theme) => Promise<void>) {
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((mode) => localStorage.setItem("theme", mode), theme);
    await page.reload();
    await page.locator(`html.${theme}`).waitFor({ state: "attached" });
    await page.locator("main").waitFor();
    await page.waitForLoadState("networkidle").catch(() => undefined);
    await each(theme);
  }
  await page.evaluate(() => localStorage.removeItem("theme"));
}
