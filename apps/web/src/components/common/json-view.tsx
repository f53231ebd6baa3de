import { ScrollPre } from "./scroll-box.tsx";

/** Arbitrary tool input/output, pretty-printed inside a disclosure so long payloads stay folded. */
export function JsonView({ value, summary }: { value: unknown; summary: string }) {
  let text: string;
  try {
    text = value === undefined ? "undefined" : (JSON.stringify(value, null, 2) ?? String(value));
  } catch {
    text = String(value);
  }
  return (
    <details className="json-view">
      <summary>{summary}</summary>
      <ScrollPre>{text}</ScrollPre>
    </details>
  );
}
