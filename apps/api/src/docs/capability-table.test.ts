import { readFileSync } from "node:fs";
import { GEMINI_CAPABILITIES } from "@skein/adapters-acp";
import { CLAUDE_CAPABILITIES } from "@skein/adapters-claude";
import { CODEX_CAPABILITIES } from "@skein/adapters-codex";
import { CAPABILITY_DESCRIPTIONS, type ProviderCapabilityName } from "@skein/domain/provider";
import { describe, expect, it } from "vitest";
import { capabilityTable, withCapabilityTable } from "./capability-table.ts";

describe("README capability table", () => {
  it("is the one the adapters' declarations make (run `pnpm capabilities` after changing them)", () => {
    const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8");
    expect(withCapabilityTable(readme)).toBe(readme);
  });

  it("has a column per provider and a row per capability with each adapter's own answer", () => {
    const table = capabilityTable();
    const [header, , ...rows] = table.split("\n");
    expect(header).toBe("| capability | Codex | Claude | Gemini |");
    const names = Object.keys(CAPABILITY_DESCRIPTIONS) as ProviderCapabilityName[];
    expect(rows).toHaveLength(names.length);
    const word = (on: boolean) => (on ? "yes" : "no");
    names.forEach((name, index) => {
      expect(rows[index]).toBe(
        `| ${CAPABILITY_DESCRIPTIONS[name]} (\`${name}\`) | ${word(CODEX_CAPABILITIES[name])} | ${word(CLAUDE_CAPABILITIES[name])} | ${word(GEMINI_CAPABILITIES[name])} |`,
      );
    });
  });
});
