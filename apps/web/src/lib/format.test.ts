import { describe, expect, it } from "vitest";
import { PROVIDER_LABEL, providerModel } from "./format.ts";
import type { ProviderKind } from "./types.ts";

describe("provider labels", () => {
  it("a built-in provider by its registered label", () => {
    expect(PROVIDER_LABEL.codex).toBe("Codex");
    expect(providerModel("gemini", null)).toBe("Gemini · default model");
  });

  it("B18 a configured ACP agent's id, known only to the server, is shown as it is", () => {
    const agent = "claude-acp" as ProviderKind;
    expect(PROVIDER_LABEL[agent]).toBe("claude-acp");
    expect(providerModel(agent, "m1")).toBe("claude-acp · m1");
  });
});
