import { readFileSync } from "node:fs";
import { CLAUDE_CAPABILITIES } from "@skein/adapters-claude";
import { CODEX_CAPABILITIES } from "@skein/adapters-codex";
import { CAPABILITY_DESCRIPTIONS } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { capabilityTable, withCapabilityTable } from "./capability-table.ts";

describe("README capability table", () => {
  it("is the one the adapters' declarations make (run `pnpm capabilities` after changing them)", () => {
    const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
    expect(withCapabilityTable(readme)).toBe(readme);
  });

  it("has a row per capability with each adapter's own answer", () => {
    const table = capabilityTable();
    const rows = table.split("\n").slice(2);
    expect(rows).toHaveLength(Object.keys(CAPABILITY_DESCRIPTIONS).length);
    const steer = rows.find((row) => row.includes("`steer`"));
    expect(steer).toBe(
      `| ${CAPABILITY_DESCRIPTIONS.steer} (\`steer\`) | ${CODEX_CAPABILITIES.steer ? "yes" : "no"} | ${CLAUDE_CAPABILITIES.steer ? "yes" : "no"} |`,
    );
    const differing = rows.filter(
      (row) => row.endsWith("| yes | no |") || row.endsWith("| no | yes |"),
    );
    const expected = Object.keys(CAPABILITY_DESCRIPTIONS).filter(
      (name) =>
        CODEX_CAPABILITIES[name as keyof typeof CODEX_CAPABILITIES] !==
        CLAUDE_CAPABILITIES[name as keyof typeof CLAUDE_CAPABILITIES],
    );
    expect(differing).toHaveLength(expected.length);
  });
});
