import { describe, expect, it } from "vitest";
import { parseInline, parseMarkdown } from "./markdown-parse.ts";

describe("markdown subset", () => {
  it("parses headings, lists, code fences, quotes and paragraphs", () => {
    const blocks = parseMarkdown(
      "# Title\n\nSome *em* and **strong** `code`.\n\n- one\n- two\n\n1. first\n\n```ts\nconst x = 1;\n```\n> quoted\n\n---",
    );
    expect(blocks.map((b) => b.type)).toEqual([
      "heading",
      "paragraph",
      "list",
      "list",
      "code",
      "quote",
      "rule",
    ]);
    expect(blocks[4]).toEqual({ type: "code", lang: "ts", text: "const x = 1;" });
  });

  it("keeps HTML as text: nothing is ever interpreted as markup", () => {
    const [block] = parseMarkdown("<script>alert(1)</script> <img src=x onerror=alert(1)>");
    expect(block).toEqual({
      type: "paragraph",
      children: [{ type: "text", text: "<script>alert(1)</script> <img src=x onerror=alert(1)>" }],
    });
  });

  it("links only to http(s) and mailto; javascript: stays text", () => {
    expect(parseInline("[ok](https://example.com)")).toEqual([
      { type: "link", href: "https://example.com", children: [{ type: "text", text: "ok" }] },
    ]);
    expect(parseInline("[bad](javascript:alert(1))")).toEqual([
      { type: "text", text: "[bad](javascript:alert(1))" },
    ]);
  });

  it("an unclosed fence or emphasis (a reply still streaming) degrades gracefully", () => {
    expect(parseMarkdown("```\npartial code")).toEqual([
      { type: "code", lang: null, text: "partial code" },
    ]);
    expect(parseInline("half **bold")).toEqual([{ type: "text", text: "half **bold" }]);
  });
});
