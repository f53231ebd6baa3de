import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/** The shared files that are wiring (not test helpers), with their text. */
function sharedWiring(): Array<{ path: string; text: string }> {
  return SHARED.flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .map((path) => ({ path, text: readFileSync(join(ROOT, path), "utf8") }))
    .filter(({ text }) => !TEST_HELPER.test(text));
}

/** Every provider package (`packages/adapters-<name>`, docs/provider-template.md). */
const PROVIDER_PACKAGES = readdirSync(join(ROOT, "packages")).filter((dir) =>
  dir.startsWith("adapters-"),
);

/** The third provider, added from the template and registered from its own test. */
const SCRIPTED = { id: "scripted", dir: "adapters-scripted" };

describe("issue 27: a provider added from the template touches only its package and the registry", () => {
  it("no shared code names a provider id outside the registry", () => {
    const literal = new RegExp(`["'\`](${PROVIDER_IDS.join("|")})["'\`]`);
    const files = sharedWiring();
    expect(files.length).toBeGreaterThan(100);
    const naming = files.filter(({ path, text }) => !REGISTRY.has(path) && literal.test(text));
    expect(naming.map(({ path }) => path)).toEqual([]);
  });

  it("no shared code imports a provider package outside the registry", () => {
    const imports = new RegExp(`["']@skein/(${PROVIDER_PACKAGES.join("|")})["'/]`);
    const importing = sharedWiring().filter(
      ({ path, text }) => !REGISTRY.has(path) && imports.test(text),
    );
    expect(importing.map(({ path }) => path)).toEqual([]);
  });

  it("the scripted provider package, registered from its own test, is named in no shared file, the registry included", () => {
    expect(PROVIDER_PACKAGES).toContain(SCRIPTED.dir);
    const naming = new RegExp(`["'\`]${SCRIPTED.id}["'\`]|@skein/${SCRIPTED.dir}`);
    const files = sharedWiring().filter(({ text }) => naming.test(text));
    expect(files.map(({ path }) => path)).toEqual([]);
    // Nor does any workspace package but itself depend on it.
    const manifests = ["apps", "packages", "tooling"]
      .flatMap((root) => readdirSync(join(ROOT, root)).map((dir) => `${root}/${dir}/package.json`))
      .filter((path) => existsSync(join(ROOT, path)) && !path.includes(`/${SCRIPTED.dir}/`));
    expect(manifests.length).toBeGreaterThan(10);
    const depending = manifests.filter((path) =>
      readFileSync(join(ROOT, path), "utf8").includes(`@skein/${SCRIPTED.dir}`),
    );
    expect(depending).toEqual([]);
  });

  it("the registry does name each provider: the check above looks in the right places", () => {
    for (const path of REGISTRY) {
      const text = readFileSync(join(ROOT, path), "utf8");
      for (const id of PROVIDER_IDS) expect(text).toMatch(new RegExp(`\\b${id}\\b`));
    }
  });
});
