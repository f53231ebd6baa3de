import { Fragment, type ReactNode } from "react";
import { type Block, type Inline, parseMarkdown } from "../../lib/markdown-parse.ts";

/**
 * Renders the safe Markdown subset as React elements (text is always escaped by React).
 */
export function Markdown({ text }: { text: string }) {
  return <div className="markdown">{keyed(parseMarkdown(text).map(renderBlock))}</div>;
}

/** Parsed blocks and spans have no identity of their own: siblings are keyed by position. */
function keyed(nodes: readonly ReactNode[]): ReactNode[] {
  // biome-ignore lint/suspicious/noArrayIndexKey: position is the identity of parsed markdown
  return nodes.map((node, i) => <Fragment key={i}>{node}</Fragment>);
}

function renderBlock(block: Block): ReactNode {
  switch (block.type) {
    case "code":
      return (
        <pre className="code-block" data-lang={block.lang ?? undefined}>
          <code>{block.text}</code>
        </pre>
      );
    case "heading": {
      const Tag = `h${Math.min(6, block.level + 2)}` as "h3" | "h4" | "h5" | "h6";
      return <Tag>{renderInline(block.children)}</Tag>;
    }
    case "list": {
      const items = keyed(block.items.map(renderListItem));
      return block.ordered ? <ol>{items}</ol> : <ul>{items}</ul>;
    }
    case "quote":
      return <blockquote>{renderInline(block.children)}</blockquote>;
    case "rule":
      return <hr />;
    case "paragraph":
      return <p>{renderInline(block.children)}</p>;
    default:
      return null;
  }
}

function renderListItem(item: Inline[]): ReactNode {
  return <li>{renderInline(item)}</li>;
}

function renderInline(nodes: readonly Inline[]): ReactNode {
  return keyed(nodes.map(renderSpan));
}

function renderSpan(node: Inline): ReactNode {
  switch (node.type) {
    case "text":
      return node.text;
    case "code":
      return <code>{node.text}</code>;
    case "strong":
      return <strong>{renderInline(node.children)}</strong>;
    case "em":
      return <em>{renderInline(node.children)}</em>;
    case "link":
      return (
        <a href={node.href} target="_blank" rel="noopener noreferrer nofollow">
          {renderInline(node.children)}
        </a>
      );
    default:
      return null;
  }
}
