import { describe, expect, it } from "vitest";
import { slashMatches } from "./slash-commands.ts";

describe("slashMatches", () => {
  it("lists every command for a bare slash and narrows by prefix, case aside", () => {
    expect(slashMatches("/")?.map((c) => c.name)).toEqual([
      "fork",
      "plan",
      "compact",
      "model",
      "switch",
      "review",
    ]);
    expect(slashMatches("/PL")?.map((c) => c.name)).toEqual(["plan"]);
    expect(slashMatches("/zzz")).toEqual([]);
  });

  it("offers nothing for a message that is not a lone command being typed", () => {
    expect(slashMatches("")).toBeNull();
    expect(slashMatches("hello /plan")).toBeNull();
    expect(slashMatches("/plan now")).toBeNull();
    expect(slashMatches("/etc/hosts")).toBeNull();
  });
});
