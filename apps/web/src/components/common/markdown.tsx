import { type ComponentProps, memo, type ReactElement } from "react";
import renderMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { markdownBlocks } from "../../lib/markdown-blocks.ts";
import { textKeyedCache } from "../../lib/text-keyed-cache.ts";
import { CodeBlock } from "../render/code-block.tsx";
import { ScrollDiv } from "./scroll-box.tsx";

type HastNode = {
  type: string;
  value?: string;
  tagName?: string;
  properties?: object;
  children?: HastNode[];
};

/**
 * Agent text as GitHub-flavoured Markdown (tables, task lists, strikethrough, autolinks) through
 * react-markdown: raw HTML is never rendered and unsafe link protocols are dropped by its URL
 * filter. Fenced code goes to the highlighted, copyable code block.
 */
export function Markdown({ text, growing = false }: { text: string; growing?: boolean }) {
  // One parse per top-level block: while a reply streams, only its last block changes, and the
  // earlier ones keep their rendering instead of being parsed again on every update.
  const blocks = markdownBlocks(text);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        // Blocks only grow at the end, so a block's position is its identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <MarkdownBlock key={index} text={block} keep={!growing || index < blocks.length - 1} />
      ))}
    </div>
  );
}

/** `keep`: the block is final (a streaming reply's last block is not: it is parsed, not kept). */
const MarkdownBlock = memo(function MarkdownBlock({ text, keep }: { text: string; keep: boolean }) {
  return keep ? parsedBlock(text) : parse(text);
});

const parse = (text: string): ReactElement =>
  // react-markdown's synchronous renderer, called for its element (it holds no hooks).
  renderMarkdown({ children: text, remarkPlugins: REMARK_PLUGINS, components: COMPONENTS });

/**
 * Final blocks already parsed, by their text. A long thread's rows mount again whenever they come
 * back into view (a scroll back, a switch back to the thread), and the parse is most of what
 * drawing a message costs; the element it gives is immutable, so it is drawn again as it is.
 */
const parsed = textKeyedCache<ReactElement>(2_000_000);
const parsedBlock = (text: string) => parsed.get(text, parse);

const REMARK_PLUGINS = [remarkGfm];

const COMPONENTS: Components = {
  pre({ node }) {
    const code = node?.children.find(
      (child): child is Extract<typeof child, { type: "element" }> =>
        child.type === "element" && child.tagName === "code",
    );
    const className = code?.properties?.className;
    const lang = Array.isArray(className)
      ? (className
          .map(String)
          .find((c) => c.startsWith("language-"))
          ?.slice(9) ?? null)
      : null;
    return <CodeBlock code={textOf(code as HastNode | undefined).replace(/\n$/, "")} lang={lang} />;
  },
  a({ node: _node, ...props }: ComponentProps<"a"> & { node?: unknown }) {
    return <a {...props} target="_blank" rel="noopener noreferrer nofollow" />;
  },
  input({ node: _node, ...props }: ComponentProps<"input"> & { node?: unknown }) {
    // GFM task list items: read-only boxes that still say what they are.
    return <input {...props} aria-label={props.checked ? "done" : "not done"} />;
  },
  table({ node: _node, ...props }: ComponentProps<"table"> & { node?: unknown }) {
    // Wide tables scroll inside the message instead of widening the page.
    return (
      <ScrollDiv className="table-scroll">
        <table {...props} />
      </ScrollDiv>
    );
  },
};

function textOf(node: HastNode | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value ?? "";
  return (node.children ?? []).map(textOf).join("");
}
