import { describe, expect, it } from "vitest";
import { excerptParts } from "./excerpt.ts";

describe("excerptParts (issue 29: why a search found a thread)", () => {
  it("starts a few words before the match, case kept, whitespace folded", () => {
    const text = `${"word ".repeat(30)}then the Quokka\n\ncounts to ten`;
    expect(excerptParts(text, "quokka")).toEqual({
      before: "…word word word then the ",
      match: "Quokka",
      after: " counts to ten",
    });
  });

  it("keeps a short text whole and shows one without the query from its start", () => {
    expect(excerptParts("the quokka", "QUOKKA")).toEqual({
      before: "the ",
      match: "quokka",
      after: "",
    });
    expect(excerptParts("nothing here", "quokka")).toEqual({
      before: "",
      match: "",
      after: "nothing here",
    });
  });
});
