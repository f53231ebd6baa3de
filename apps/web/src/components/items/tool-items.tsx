import type { TurnItemOf } from "../../lib/types.ts";
import { DiffView } from "../common/diff-view.tsx";
import { JsonView } from "../common/json-view.tsx";

export function CommandExecutionView({ item }: { item: TurnItemOf<"command_execution"> }) {
  const exit = item.exitCode;
  return (
    <div className="command">
      <div className="command-head">
        <code className="command-input">$ {item.input}</code>
        {exit !== undefined && (
          <span className={`badge ${exit === 0 ? "badge-ok" : "badge-failed"}`}>exit {exit}</span>
        )}
      </div>
      {item.output !== undefined && item.output !== "" ? (
        <pre className="command-output">{item.output}</pre>
      ) : (
        item.status === "running" && <p className="muted">running…</p>
      )}
    </div>
  );
}

export function FileChangeView({ item }: { item: TurnItemOf<"file_change"> }) {
  const small = (item.diffStr ?? `${item.oldStr ?? ""}${item.newStr ?? ""}`).length < 4_000;
  return (
    <details className="file-change" open={small}>
      <summary>
        <code>{item.fileName}</code>{" "}
        {item.additions !== undefined && <span className="add">+{item.additions}</span>}{" "}
        {item.deletions !== undefined && <span className="del">−{item.deletions}</span>}
      </summary>
      <DiffView
        diff={item.diffStr}
        oldText={item.oldStr}
        newText={item.newStr}
        label={`Diff of ${item.fileName}`}
      />
    </details>
  );
}

export function FileSearchView({ item }: { item: TurnItemOf<"file_search"> }) {
  return (
    <div className="search-item">
      <span className="item-label">File search</span> <code>{item.query}</code>
      {item.matches && item.matches.length > 0 && (
        <ul className="compact-list">
          {item.matches.map((match) => (
            <li key={match}>
              <code>{match}</code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const SAFE_URL = /^https?:\/\//i;

export function WebSearchView({ item }: { item: TurnItemOf<"web_search"> }) {
  return (
    <div className="search-item">
      <span className="item-label">Web search</span> <code>{item.query}</code>
      {item.results && item.results.length > 0 && (
        <ul className="compact-list">
          {item.results.map((result) => (
            <li key={result.url}>
              {SAFE_URL.test(result.url) ? (
                <a href={result.url} target="_blank" rel="noopener noreferrer nofollow">
                  {result.title || result.url}
                </a>
              ) : (
                result.title
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function DynamicToolView({ item }: { item: TurnItemOf<"dynamic_tool"> }) {
  const name = item.toolName ?? "tool";
  return (
    <div className="dynamic-tool">
      <span className="item-label">Tool</span> <code>{name}</code>
      <JsonView value={item.input} summary={`Input of ${name}`} />
      {item.output !== undefined && <JsonView value={item.output} summary={`Output of ${name}`} />}
    </div>
  );
}
