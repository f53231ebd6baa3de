import { FilePen, FileText, FolderOpen, Globe, Search, Terminal, Wrench } from "lucide-react";
import { unwrapShell } from "../../lib/shell-command.ts";
import type { TurnItemOf } from "../../lib/types.ts";
import {
  relativizeDiffHeads,
  relativizeText,
  workspaceRelative,
} from "../../lib/workspace-path.ts";
import { useWorkspaceOf } from "../approvals/approval-detail.tsx";
import { DiffView } from "../common/diff-view.tsx";
import { JsonView } from "../common/json-view.tsx";
import { AnsiText, ansiPlain } from "../render/ansi-text.tsx";
import { CopyButton } from "../render/copy-button.tsx";
import { duration, ToolCard, TruncatedOutput } from "../render/tool-card.tsx";

const LIVE = new Set(["pending", "running"]);

function tookOf(item: { status: string; createdAt: string; updatedAt: string }): string | null {
  return LIVE.has(item.status) ? null : duration(item.createdAt, item.updatedAt);
}

/** A shell command: open while it runs or when it failed, folded once it succeeded. */
export function CommandExecutionView({ item }: { item: TurnItemOf<"command_execution"> }) {
  const exit = item.exitCode;
  const running = LIVE.has(item.status);
  const failed = (exit !== undefined && exit !== 0) || item.status === "failed";
  const took = tookOf(item);
  const output = item.output ?? "";
  // B16: the command as meant, not the runtime's shell wrapper; the exact one is in the card.
  const shown = unwrapShell(item.input);
  return (
    <ToolCard
      kind="command"
      icon={Terminal}
      autoOpen={running || failed}
      summary={
        <>
          <span className="tool-kind">Command</span>
          <code className="command-input clip" title={item.input}>
            $ {shown}
          </code>
          {exit !== undefined && (
            <span className={`badge ${exit === 0 ? "badge-ok" : "badge-failed"}`}>exit {exit}</span>
          )}
          {running && <span className="muted">running…</span>}
          {took && <span className="muted tool-took">{took}</span>}
        </>
      }
    >
      {shown !== item.input && (
        <p className="muted exact-command">
          Exact command: <code>{item.input}</code>
        </p>
      )}
      <div className="tool-card-tools">
        <span className="muted">
          {running ? "Output so far" : "Output"}
          {output === "" ? ": none" : ""}
        </span>
        {output !== "" && <CopyButton text={ansiPlain(output)} label="Copy output" />}
      </div>
      {output !== "" && (
        <TruncatedOutput text={output} render={(shown) => <AnsiText text={shown} />} />
      )}
    </ToolCard>
  );
}

export function FileChangeView({ item }: { item: TurnItemOf<"file_change"> }) {
  const workspace = useWorkspaceOf(item.threadId);
  const fileName = relativizeText(item.fileName, workspace);
  // A change of several files heads each file's lines with its path: relative, like the title.
  const diff =
    item.diffStr === undefined ? undefined : relativizeDiffHeads(item.diffStr, workspace);
  const small = (item.diffStr ?? `${item.oldStr ?? ""}${item.newStr ?? ""}`).length < 4_000;
  return (
    <ToolCard
      kind="file-change"
      icon={FilePen}
      autoOpen={small}
      summary={
        <>
          <span className="tool-kind">Edit</span>
          <code className="file-name clip" title={item.fileName}>
            {fileName}
          </code>
          {item.additions !== undefined && <span className="add">+{item.additions}</span>}
          {item.deletions !== undefined && <span className="del">−{item.deletions}</span>}
        </>
      }
    >
      <DiffView
        diff={diff}
        oldText={item.oldStr}
        newText={item.newStr}
        label={`Diff of ${fileName}`}
      />
    </ToolCard>
  );
}

export function FileSearchView({ item }: { item: TurnItemOf<"file_search"> }) {
  const workspace = useWorkspaceOf(item.threadId);
  const matches = item.matches ?? [];
  // B16: a read is a read of one file, not a search that found nothing.
  if (item.action === "read" || item.action === "list") {
    const reading = item.action === "read";
    return (
      <ToolCard
        kind="search"
        icon={reading ? FileText : FolderOpen}
        autoOpen={false}
        summary={
          <>
            <span className="tool-kind">{reading ? "Read" : "List"}</span>{" "}
            <code className="clip" title={item.query}>
              {workspaceRelative(item.query, workspace)}
            </code>
          </>
        }
      >
        <p className="muted">
          {reading ? "Read the file" : "Listed the folder"}
          {item.status === "failed" ? ", which failed." : "."}
        </p>
      </ToolCard>
    );
  }
  return (
    <ToolCard
      kind="search"
      icon={Search}
      autoOpen={false}
      summary={
        <>
          <span className="tool-kind">File search</span>{" "}
          <code className="clip">{relativizeText(item.query, workspace)}</code>
          {item.matches !== undefined && (
            <span className="muted">
              {matches.length} match{matches.length === 1 ? "" : "es"}
            </span>
          )}
        </>
      }
    >
      {matches.length > 0 ? (
        <ul className="compact-list">
          {matches.map((match) => (
            <li key={match}>
              <code>{match}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          {item.matches === undefined ? "Matches not reported." : "No matches."}
        </p>
      )}
    </ToolCard>
  );
}

const SAFE_URL = /^https?:\/\//i;

export function WebSearchView({ item }: { item: TurnItemOf<"web_search"> }) {
  const results = item.results ?? [];
  return (
    <ToolCard
      kind="search"
      icon={Globe}
      autoOpen={false}
      summary={
        <>
          <span className="tool-kind">Web search</span> <code className="clip">{item.query}</code>
          <span className="muted">
            {results.length} result{results.length === 1 ? "" : "s"}
          </span>
        </>
      }
    >
      {results.length > 0 ? (
        <ul className="compact-list">
          {results.map((result) => (
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
      ) : (
        <p className="muted">No results.</p>
      )}
    </ToolCard>
  );
}

export function DynamicToolView({ item }: { item: TurnItemOf<"dynamic_tool"> }) {
  const name = item.toolName ?? "tool";
  const took = tookOf(item);
  return (
    <ToolCard
      kind="dynamic"
      icon={Wrench}
      autoOpen={item.status === "failed"}
      summary={
        <>
          <span className="tool-kind">Tool</span> <code className="clip">{name}</code>
          {LIVE.has(item.status) && <span className="muted">running…</span>}
          {took && <span className="muted tool-took">{took}</span>}
        </>
      }
    >
      <JsonView value={item.input} summary={`Input of ${name}`} />
      {item.output !== undefined && <JsonView value={item.output} summary={`Output of ${name}`} />}
    </ToolCard>
  );
}
