import Anser from "anser";
import type { CSSProperties } from "react";

/**
 * Terminal output with its ANSI colours and weights, parsed by anser into spans (never HTML):
 * escape sequences a terminal would interpret are not shown as garbage.
 */
export function AnsiText({ text }: { text: string }) {
  const parts = Anser.ansiToJson(text, { json: true, remove_empty: true, use_classes: false });
  return (
    <>
      {parts.map((part, i) => {
        const style = styleOf(part);
        return style === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional runs of one text
          <span key={i}>{part.content}</span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans are positional runs of one text
          <span key={i} style={style}>
            {part.content}
          </span>
        );
      })}
    </>
  );
}

function styleOf(part: Anser.AnserJsonEntry): CSSProperties | null {
  const style: CSSProperties = {};
  if (part.fg) style.color = `rgb(${part.fg})`;
  if (part.bg) style.backgroundColor = `rgb(${part.bg})`;
  if (part.decorations.includes("bold")) style.fontWeight = 600;
  if (part.decorations.includes("italic")) style.fontStyle = "italic";
  if (part.decorations.includes("underline")) style.textDecoration = "underline";
  if (part.decorations.includes("dim")) style.opacity = 0.7;
  return Object.keys(style).length === 0 ? null : style;
}

/** The output without escape sequences (what a copy button should put on the clipboard). */
export function ansiPlain(text: string): string {
  return Anser.ansiToText(text);
}
