import { toJsxRuntime } from "hast-util-to-jsx-runtime";
import { useMemo } from "react";
import { Fragment, jsx, jsxs } from "react/jsx-runtime";
import { highlightToHast } from "../../lib/highlight.ts";
import { CopyButton } from "./copy-button.tsx";
import { ScrollPre } from "../common/scroll-box.tsx";

/** A fenced code block, highlighted by its language, with a copy button for the source. */
export function CodeBlock({ code, lang }: { code: string; lang: string | null }) {
  const tree = useMemo(() => highlightToHast(code, lang), [code, lang]);
  return (
    <div className="code-block" data-lang={lang ?? undefined} data-highlighted={tree !== null}>
      <div className="code-block-bar">
        <span className="code-lang">{lang ?? "text"}</span>
        <CopyButton text={code} label="Copy code" />
      </div>
      <ScrollPre className="code-pre">
        <code className={tree ? `hljs language-${lang}` : undefined}>
          {tree ? toJsxRuntime(tree, { Fragment, jsx, jsxs }) : code}
        </code>
      </ScrollPre>
    </div>
  );
}
