import { describe, expect, it } from "vitest";
import { modelLabel } from "./model-label.ts";

const catalog = [
  {
    id: "gpt-5.5",
    displayName: "GPT-5.5",
    description: "",
    isDefault: true,
    efforts: [],
    defaultEffort: null,
  },
  {
    id: "gpt-5-mini",
    displayName: "",
    description: "",
    isDefault: false,
    efforts: [],
    defaultEffort: null,
  },
];

describe("modelLabel", () => {
  it("names a model by its display name, and an unnamed pick by the catalog's default", () => {
    expect(modelLabel(catalog, "gpt-5.5")).toBe("GPT-5.5");
    expect(modelLabel(catalog, null)).toBe("GPT-5.5");
    expect(modelLabel(catalog, "  ")).toBe("GPT-5.5");
  });

  it("falls back to the id without a display name, and to words before the catalog is read", () => {
    expect(modelLabel(catalog, "gpt-5-mini")).toBe("gpt-5-mini");
    expect(modelLabel(catalog, "custom-model")).toBe("custom-model");
    expect(modelLabel([], null)).toBe("default model");
    expect(modelLabel([], "gpt-5.5")).toBe("gpt-5.5");
  });
});
