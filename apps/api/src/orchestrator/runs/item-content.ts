import type { ExecutionNodeKind, TurnItemContent } from "@skein/domain";
import type { RuntimeFileChange, RuntimeItemFields, RuntimeItemKind } from "@skein/domain/provider";

/** The execution node kind a runtime item becomes (E5). */
export function nodeKindOf(
  kind: RuntimeItemKind,
): Exclude<ExecutionNodeKind, "root_turn" | "approval_request" | "user_input_request"> {
  switch (kind) {
    case "assistant_message":
      return "assistant_message";
    case "reasoning":
      return "reasoning";
    case "subagent":
      return "subagent";
    case "hook":
      return "hook";
    case "notice":
    case "compaction":
    case "user_message":
      return "system";
    default:
      return "tool_call";
  }
}

/**
 * One diff for a change of several files: each file's part opens with its `@@ path @@` line (as
 * an approval's detail does), so the lines of one file are not read as another's (B16).
 */
function joinedDiff(changes: readonly RuntimeFileChange[]): string {
  const parts = changes.filter((c) => c.diff);
  if (parts.length === 1) return parts[0]!.diff!;
  return parts.map((c) => `@@ ${c.path} @@\n${c.diff!.replace(/\n$/, "")}`).join("\n");
}

/** The turn-item payload (P6) a runtime item shows as; null for items with no display. */
export function contentOf(
  kind: RuntimeItemKind,
  fields: RuntimeItemFields,
): TurnItemContent | null {
  switch (kind) {
    case "assistant_message":
      return { type: "assistant_message", text: fields.text ?? "" };
    case "reasoning":
      return { type: "reasoning", text: fields.text ?? "" };
    case "command_execution":
      return {
        type: "command_execution",
        input: fields.command ?? "",
        ...(fields.output !== undefined ? { output: fields.output } : {}),
        ...(typeof fields.exitCode === "number" ? { exitCode: fields.exitCode } : {}),
      };
    case "file_change": {
      const changes = fields.changes ?? [];
      const fileName = changes.map((c) => c.path).join(", ") || "(unknown file)";
      const diff = joinedDiff(changes);
      const sum = (pick: (c: (typeof changes)[number]) => number | undefined) => {
        const values = changes.map(pick).filter((v): v is number => typeof v === "number");
        return values.length ? values.reduce((a, b) => a + b, 0) : undefined;
      };
      const additions = sum((c) => c.additions);
      const deletions = sum((c) => c.deletions);
      return {
        type: "file_change",
        fileName,
        ...(diff ? { diffStr: diff } : {}),
        ...(additions !== undefined ? { additions } : {}),
        ...(deletions !== undefined ? { deletions } : {}),
      };
    }
    case "file_search": {
      const action = fileActionOf(fields.toolName);
      return { type: "file_search", query: fields.query ?? "", ...(action ? { action } : {}) };
    }
    case "web_search":
      return { type: "web_search", query: fields.query ?? "" };
    case "dynamic_tool":
      return {
        type: "dynamic_tool",
        toolName: fields.toolName ?? null,
        input: fields.input ?? null,
        ...(fields.result !== undefined ? { output: fields.result } : {}),
      };
    case "compaction":
      return { type: "compaction" };
    case "subagent":
      return {
        type: "dynamic_tool",
        toolName: "subagent",
        input: fields.description ?? null,
        ...(fields.result !== undefined ? { output: fields.result } : {}),
      };
    // Hook runs and runtime notices live in the graph (E5), not in the conversation.
    case "hook":
    case "notice":
    case "user_message":
      return null;
  }
}

/**
 * The content to complete an item with. A completion may say less than the stream did: an item
 * the provider never finished (interrupted, steered, its process died) is closed by the adapter
 * with no fields. Text kinds then keep what their deltas built up (the text at start was only the
 * empty beginning); other kinds fall back to what they reported when they started.
 */
export function completionContentOf(
  kind: RuntimeItemKind,
  started: RuntimeItemFields | undefined,
  completed: RuntimeItemFields,
): TurnItemContent | null {
  if (kind === "assistant_message" || kind === "reasoning") {
    return completed.text === undefined ? null : contentOf(kind, completed);
  }
  return contentOf(kind, { ...started, ...completed });
}

/** B16: a read is a read, not a search with no matches (Claude's Read, Grep/Glob, LS). */
function fileActionOf(toolName: string | undefined): "read" | "search" | "list" | undefined {
  if (toolName === "Read") return "read";
  if (toolName === "Grep" || toolName === "Glob") return "search";
  if (toolName === "LS") return "list";
  return undefined;
}
