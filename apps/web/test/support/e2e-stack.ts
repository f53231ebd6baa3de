import type { Browser, BrowserContext, Page, ViewportSize } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { launchBrowser } from "./browser.ts";
import { ensureProductionBuild } from "./build.ts";
import { watchPage } from "./failure-report.ts";
import { type Stack, startStack } from "./stack.ts";

export type E2eStack = { stack: Stack; browser: Browser; context: BrowserContext; page: Page };

export type E2eStackOptions = {
  /** Playwright's default (1280×720) when absent. */
  viewport?: ViewportSize;
  /** Default timeout of the page's actions and waits. */
  timeoutMs?: number;
  /** Codex `[features]` flags for the stack's CODEX_HOME (e.g. `{ multi_agent_v2: true }`). */
  codexFeatures?: Record<string, boolean>;
  /** B15: neither runtime signed in; every model URL a dead loopback port. */
  signedOut?: boolean;
  /** Writes a history into the API's data dir before the API opens it (see seed-history.ts). */
  seed?: (dataDir: string) => Promise<void>;
  /** More environment for the API process, read when the stack starts (after earlier hooks). */
  apiEnv?: () => Record<string, string>;
  /** Time for the build, the seed and the stack to start (vitest's hookTimeout when absent). */
  startTimeoutMs?: number;
};

/**
 * One production build, one real stack (API, web, fake model servers) and one Chromium page per
 * browser test file, closed after it. Returns them as a handle whose fields can be read once the
 * file's tests run (`const { stack, page } = e2e;` inside a test); reading one before the stack
 * started throws. Hooks the file registers after this call run after the start.
 */
export function useE2eStack(options: E2eStackOptions = {}): E2eStack {
  let started: Partial<E2eStack> = {};
  let watched: ReturnType<typeof watchPage> | null = null;
  beforeAll(async () => {
    const build = await ensureProductionBuild();
    console.info(
      `[apps/web e2e] UI build: ${build.built ? `built in ${build.ms} ms` : build.reason}`,
    );
    const stack = await startStack("start", {
      ...(options.codexFeatures ? { codexFeatures: options.codexFeatures } : {}),
      ...(options.seed ? { seed: options.seed } : {}),
      ...(options.signedOut ? { signedOut: true } : {}),
      ...(options.apiEnv ? { apiEnv: options.apiEnv() } : {}),
    });
    started = { stack };
    const browser = await launchBrowser();
    started.browser = browser;
    const context = await browser.newContext(
      options.viewport ? { viewport: options.viewport } : {},
    );
    const page = await context.newPage();
    page.setDefaultTimeout(options.timeoutMs ?? 30_000);
    watched = watchPage(page);
    started.context = context;
    started.page = page;
  }, options.startTimeoutMs);
  afterEach(async (context) => {
    if (context.task.result?.state !== "fail" || !watched) return;
    console.error(await watched.report(context.task.name));
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.stack?.close();
  });
  const get = <K extends keyof E2eStack>(key: K): E2eStack[K] => {
    const value = started[key];
    if (!value) throw new Error(`the e2e stack's ${key} is read before the stack started`);
    return value as E2eStack[K];
  };
  return {
    get stack() {
      return get("stack");
    },
    get browser() {
      return get("browser");
    },
    get context() {
      return get("context");
    },
    get page() {
      return get("page");
    },
  };
}
