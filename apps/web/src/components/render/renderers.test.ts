import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { grammarFor, highlightToHast } from "../../lib/highlight.ts";
import type { TurnItem } from "../../lib/types.ts";
import { Markdown } from "../common/markdown.tsx";
import { CommandExecutionView } from "../items/tool-items.tsx";
import { AnsiText } from "./ansi-text.tsx";

const md = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("markdown (react-markdown + remark-gfm)", () => {
  it("leaves intraword underscores alone: snake_case is not italics", () => {
    const html = md("Call foo_bar(baz_qux) and read my_var_name.");
    expect(html).toContain("foo_bar(baz_qux)");
    expect(html).toContain("my_var_name");
    expect(html).not.toContain("<em>");
    expect(md("an _emphasised_ word")).toContain("<em>emphasised</em>");
  });

  it("renders GFM tables, task lists and strikethrough", () => {
    const html = md("| a | b |\n| - | - |\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n~~gone~~");
    expect(html).toMatch(/<table>.*<th>a<\/th>.*<td>2<\/td>/s);
    expect(html).toContain('type="checkbox"');
    expect(html).toMatch(/checked=""[^>]*aria-label="done"|aria-label="done"[^>]*checked=""/);
    expect(html).toContain('aria-label="not done"');
    expect(html).toContain('<li class="task-list-item">');
    expect(html).toContain("<del>gone</del>");
  });

  it("escapes raw HTML and drops javascript: links", () => {
    const html = md('<img src=x onerror="alert(1)"> [x](javascript:alert(1)) [ok](https://a.b)');
    expect(html).not.toContain("<img");
    expect(html).not.toContain("javascript:");
    expect(html).toContain('href="https://a.b"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });

  it("fenced code becomes a copyable code block labelled with its language", () => {
    const html = md("```ts\nconst a_b = 1;\n```");
    expect(html).toContain('data-lang="ts"');
    expect(html).toContain('aria-label="Copy code"');
    expect(html.replace(/<[^>]+>/g, "")).toContain("const a_b = 1;");
  });
});

describe("syntax highlighting (highlight.js via lowlight)", () => {
  it("knows common fence names and leaves unknown ones plain", () => {
    expect(grammarFor("ts")).toBe("ts");
    expect(grammarFor("Bash")).toBe("bash");
    expect(grammarFor("brainfudge")).toBeNull();
    expect(grammarFor(null)).toBeNull();
    expect(highlightToHast("x", "brainfudge")).toBeNull();
  });

  it("a TypeScript fence renders keyword, string, number and comment tokens, text intact", () => {
    const html = md('```ts\nconst answer: number = 42; // "hi" <b>\nreturn "x";\n```');
    expect(html).toContain('data-highlighted="true"');
    for (const kind of ["keyword", "number", "comment", "string"]) {
      expect(html).toContain(`class="hljs-${kind}"`);
    }
    expect(html).toContain('<span class="hljs-keyword">const</span>');
    expect(html.replace(/<[^>]+>/g, "")).toContain(
      "const answer: number = 42; // &quot;hi&quot; &lt;b&gt;",
    );
    expect(html).not.toContain("<b>");
  });

  it("an unknown language stays plain, still copyable", () => {
    const html = md("```nonsense\na_b_c\n```");
    expect(html).toContain('data-highlighted="false"');
    expect(html).toContain("a_b_c");
    expect(html).toContain('aria-label="Copy code"');
  });
});

describe("tool cards", () => {
  const command = (over: Partial<Record<string, unknown>>) =>
    ({
      id: "itm_c",
      threadId: "thr_a",
      runId: "run_1",
      runOrdinal: 1,
      nodeId: null,
      providerTurnId: null,
      nativeItemRef: null,
      provider: "codex",
      type: "command_execution",
      input: "pnpm test",
      output: "ok",
      exitCode: 0,
      status: "completed",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:02.500Z",
      ...over,
    }) as unknown as Extract<TurnItem, { type: "command_execution" }>;
  const card = (over: Partial<Record<string, unknown>>) =>
    renderToStaticMarkup(createElement(CommandExecutionView, { item: command(over) }));

  it("a successful command is folded; its summary still says command, exit code and duration", () => {
    const html = card({});
    expect(html).toMatch(/<details class="tool-card tool-command">/);
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).toMatch(/<summary[^>]*>.*\$ pnpm test.*exit 0.*2\.5 s.*<\/summary>/s);
  });

  it("a failed or running command is open", () => {
    expect(card({ exitCode: 1 })).toMatch(/<details[^>]* open=""/);
    expect(card({ status: "running", exitCode: undefined })).toMatch(/<details[^>]* open=""/);
    expect(card({ status: "running", exitCode: undefined })).toContain("running…");
  });

  it("long output shows its tail with a Show all button", () => {
    const output = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join("\n");
    const html = card({ output, exitCode: 1 });
    expect(html).toContain("Show all 100 lines (60 hidden)");
    expect(html).toContain("line 100");
    expect(html).not.toContain("line 60\n");
    expect(html).toContain("line 61");
  });

  it("ANSI colours become styled spans, not escape garbage", () => {
    const html = renderToStaticMarkup(
      createElement(AnsiText, { text: "\u001b[31mred\u001b[0m plain \u001b[1mbold\u001b[0m" }),
    );
    expect(html).toMatch(/<span style="color:rgb\(\d+, 0, 0\)">red<\/span>/);
    expect(html).toContain("<span> plain </span>");
    expect(html).toContain('<span style="font-weight:600">bold</span>');
    expect(html).not.toContain("\u001b");
  });
});
