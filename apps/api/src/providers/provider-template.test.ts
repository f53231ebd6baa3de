import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVIDER_IDS } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";

const ROOT = resolve(fileURLToPath(new URL("../../../..", import.meta.url)));

/** Where a provider's id must not be written out: the code that serves every provider. */
const SHARED = [
  "apps/api/src",
  "apps/web/src",
  "packages/contract/src",
  "packages/domain/src",
  "packages/transfer/src",
];

/** The registry: the one place (two files) a provider is named (docs/provider-template.md). */
const REGISTRY = new Set([
  "packages/domain/src/provider/providers.ts",
  "apps/api/src/providers/provider-registry.ts",
]);

/** Tests and their fixtures name providers to exercise them; that is not wiring. */
const NOT_WIRING = /\.test\.tsx?$|\.test-d\.ts$|\/(test|testing|test-support)\/|fixtures/;
/** Test helpers kept beside the code (given/when/then specs) import the test runner. */
const TEST_HELPER = /from "vitest"/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.includes("node_modules") && !NOT_WIRING.test(path));
}

describe("issue 27: a provider added from the template touches only its package and the registry", () => {
  it("no shared code names a provider id outside the registry", () => {
    const literal = new RegExp(`["'\`](${PROVIDER_IDS.join("|")})["'\`]`);
    const files = SHARED.flatMap((dir) => sourceFiles(join(ROOT, dir)));
    expect(files.length).toBeGreaterThan(100);
    const naming = files.filter((path) => {
      const text = readFileSync(join(ROOT, path), "utf8");
      return !REGISTRY.has(path) && !TEST_HELPER.test(text) && literal.test(text);
    });
    expect(naming).toEqual([]);
  });

  it("the registry does name each provider: the check above looks in the right places", () => {
    for (const path of REGISTRY) {
      const text = readFileSync(join(ROOT, path), "utf8");
      for (const id of PROVIDER_IDS) expect(text).toMatch(new RegExp(`\\b${id}\\b`));
    }
  });
});
