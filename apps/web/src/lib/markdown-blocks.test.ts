import { describe, expect, it } from "vitest";
import { markdownBlocks } from "./markdown-blocks.ts";

describe("markdownBlocks", () => {
  it("cuts between paragraphs and gives the text back when joined", () => {
    const text = "First paragraph\nstill first.\n\nSecond.\n\n# Heading\n\nThird.";
    const blocks = markdownBlocks(text);
    expect(blocks).toEqual([
      "First paragraph\nstill first.\n\n",
      "Second.\n\n",
      "# Heading\n\n",
      "Third.",
    ]);
    expect(blocks.join("")).toBe(text);
  });

  it("never cuts inside a fenced code block, even at blank lines", () => {
    const text = "Intro\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\nAfter";
    expect(markdownBlocks(text)).toEqual([
      "Intro\n\n",
      "```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n",
      "After",
    ]);
  });

  it("keeps a loose list and its indented continuations in one block", () => {
    const text = "1. one\n\n2. two\n\n   more of two\n\n- a\n\n- b\n\nEnd";
    expect(markdownBlocks(text)).toEqual([
      "1. one\n\n2. two\n\n   more of two\n\n- a\n\n- b\n\n",
      "End",
    ]);
  });

  it("leaves a text without blank lines (or an unclosed fence) whole", () => {
    expect(markdownBlocks("one line")).toEqual(["one line"]);
    expect(markdownBlocks("```\nopen\n\nstill code")).toEqual(["```\nopen\n\nstill code"]);
  });
});
