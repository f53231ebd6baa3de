import { describe, expect, it } from "vitest";
import { insertMention, mentionAt } from "./mention-query.ts";

describe("mentionAt", () => {
  it("finds the @word at the caret, at the start or after a space", () => {
    expect(mentionAt("@src", 4)).toEqual({ start: 0, query: "src" });
    expect(mentionAt("look at @app.t", 14)).toEqual({ start: 8, query: "app.t" });
    expect(mentionAt("look at @", 9)).toEqual({ start: 8, query: "" });
  });

  it("is no mention in an address, after a space, or behind the caret", () => {
    expect(mentionAt("mail me@example.com", 19)).toBeNull();
    expect(mentionAt("@src done", 9)).toBeNull();
    expect(mentionAt("@src", 0)).toBeNull();
  });
});

describe("insertMention", () => {
  it("replaces the typed mention with the path and a space, keeping the rest", () => {
    expect(insertMention("see @ap please", 4, 7, "src/app.ts")).toEqual({
      text: "see @src/app.ts please",
      caret: 16,
    });
    expect(insertMention("@a", 0, 2, "a.ts")).toEqual({ text: "@a.ts ", caret: 6 });
  });
});
