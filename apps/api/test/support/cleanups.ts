import fs from "node:fs";
import { afterEach } from "vitest";
import { tempDir } from "./test-server.ts";

/**
 * For a test file: a list of cleanups run after each test, last first, and temp directories
 * removed the same way.
 */
export function useCleanups(): { cleanups: (() => unknown)[]; dir: (prefix: string) => string } {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const dir = (prefix: string): string => {
    const made = tempDir(prefix);
    cleanups.push(() => fs.rmSync(made, { recursive: true, force: true }));
    return made;
  };
  return { cleanups, dir };
}

/**
 * For a test file: `open` makes a fresh resource for the test calling it (a harness with real
 * runtimes), and it is closed after that test, passed or failed, so no runtime outlives it.
 */
export function usePerTest<O, H extends { close(): Promise<unknown> }>(
  create: (options?: O) => Promise<H>,
): (options?: O) => Promise<H> {
  const open: H[] = [];
  afterEach(async () => {
    for (const resource of open.splice(0).reverse()) await resource.close();
  });
  return async (options) => {
    const made = await create(options);
    open.push(made);
    return made;
  };
}
