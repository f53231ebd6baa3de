import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { coverageDocument, specCoverage, specIds } from "./spec-coverage.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * Ids no test cites yet, each waiting for a test that checks it (not a rename). The list may only
 * shrink: an id cited since then fails here until it is taken off.
 */
const NOT_YET_CITED: readonly string[] = [];

describe("docs/spec-coverage.md: SPEC id → the tests that check it", () => {
  it("is the table the test names make (run `pnpm spec-coverage` after adding or renaming tests)", () => {
    const committed = readFileSync(`${ROOT}docs/spec-coverage.md`, "utf8");
    expect(specCoverage(ROOT).document).toBe(committed);
  });

  it("every SPEC id is cited by a test, but for the ones still listed as not yet cited", () => {
    expect(specCoverage(ROOT).uncited).toEqual(NOT_YET_CITED);
  });

  it("reads every id SPEC.md defines, including several on one line, and cites by word", () => {
    const spec = "- **E1 Project.** x\n- **P1** Thread shell. **P2** Thread detail.\n- **B13 Fi.**";
    expect(specIds(spec).map((s) => s.id)).toEqual(["E1", "P1", "P2", "B13"]);
    expect(specIds(spec)[1]).toEqual({ id: "P1", title: "Thread shell" });
    const doc = coverageDocument(specIds(spec), [
      { file: "a.test.ts", name: "E1 P2: both", ids: ["E1", "P2"] },
    ]);
    expect(doc).toContain("| E1 | Project | 1 | `a.test.ts` |");
    expect(doc).toContain("| P1 | Thread shell | 0 |  |");
    expect(specIds(readFileSync(`${ROOT}docs/SPEC.md`, "utf8")).length).toBeGreaterThanOrEqual(60);
  });
});
