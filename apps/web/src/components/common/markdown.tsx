import { type ComponentProps, memo } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { markdownBlocks } from "../../lib/markdown-blocks.ts";
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
export function Markdown({ text }: { text: string }) {
  // One parse per top-level block: while a reply streams, only its last block changes, and the
  // earlier ones keep their rendering instead of being parsed again on every update.
  const blocks = markdownBlocks(text);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        // Blocks only grow at the end, so a block's position is its identity.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <MarkdownBlock key={index} text={block} />
      ))}
    </div>
  );
}

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
});

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
