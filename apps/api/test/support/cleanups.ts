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
