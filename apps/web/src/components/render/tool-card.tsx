"use client";
import { ChevronRight, type LucideIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { ScrollPre } from "../common/scroll-box.tsx";

/**
 * A collapsible card for one tool call: the summary line always shows what ran and how it ended;
 * the body folds away. It follows `autoOpen` (e.g. open while running or after a failure) until
 * the reader toggles it, after which their choice sticks.
 */
export function ToolCard({
  kind,
  icon: Icon,
  summary,
  autoOpen,
  children,
}: {
  kind: string;
  icon: LucideIcon;
  summary: ReactNode;
  autoOpen: boolean;
  children: ReactNode;
}) {
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = choice ?? autoOpen;
  return (
    <details
      className={`tool-card tool-${kind}`}
      open={open}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        if (now !== open) setChoice(now);
      }}
    >
      <summary className="tool-card-summary">
        <ChevronRight className="tool-chevron" size={14} aria-hidden="true" />
        <Icon className="tool-icon" size={14} aria-hidden="true" />
        {summary}
      </summary>
      <div className="tool-card-body">{children}</div>
    </details>
  );
}

/** Long output shows its last lines first (where errors are); "Show all" expands it. */
export function TruncatedOutput({
  text,
  maxLines = 40,
  render,
}: {
  text: string;
  maxLines?: number;
  render(text: string): ReactNode;
}) {
  const [all, setAll] = useState(false);
  const lines = text.replace(/\n$/, "").split("\n");
  const hidden = all ? 0 : Math.max(0, lines.length - maxLines);
  return (
    <>
      {hidden > 0 && (
        <button type="button" className="small show-all" onClick={() => setAll(true)}>
          Show all {lines.length} lines ({hidden} hidden)
        </button>
      )}
      <ScrollPre className="command-output">
        {render(hidden > 0 ? lines.slice(hidden).join("\n") : text)}
      </ScrollPre>
    </>
  );
}

/** "1.2 s", "3 min 4 s": how long a finished item took, from its own timestamps. */
export function duration(fromIso: string, toIso: string): string | null {
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  if (!Number.isFinite(ms) || ms < 0) return null;
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
}
