import type { ToolCall, ToolCallContent, ToolCallUpdate, ToolKind } from "@agentclientprotocol/sdk";
import type {
  RuntimeFileChange,
  RuntimeItemFields,
  RuntimeItemKind,
  RuntimeRequestKind,
} from "@skein/domain/provider";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Skein's item kind for an ACP tool kind. */
export function itemKindOf(kind: ToolKind | null | undefined): RuntimeItemKind {
  switch (kind) {
    case "execute":
      return "command_execution";
    case "edit":
    case "delete":
    case "move":
      return "file_change";
    case "search":
    case "read":
      return "file_search";
    case "fetch":
      return "web_search";
    default:
      return "dynamic_tool";
  }
}

/** The kind of approval Skein shows for a permission request about a tool of this kind. */
export function requestKindOf(kind: ToolKind | null | undefined): RuntimeRequestKind {
  switch (kind) {
    case "execute":
      return "command";
    case "edit":
    case "delete":
    case "move":
      return "file-change";
    case "read":
    case "search":
      return "file-read";
    default:
      return "dynamic_tool_call";
  }
}

/** The shell command of an `execute` tool call: its raw input's `command`, else its title. */
export function commandOf(call: ToolCall | ToolCallUpdate): string | undefined {
  const input = call.rawInput;
  if (isRecord(input) && typeof input.command === "string") return input.command;
  return call.title ?? undefined;
}

function contentText(content: readonly ToolCallContent[] | null | undefined): string | undefined {
  const texts = (content ?? []).flatMap((c) =>
    c.type === "content" && c.content.type === "text" ? [c.content.text] : [],
  );
  return texts.length > 0 ? texts.join("\n") : undefined;
}

function changesOf(content: readonly ToolCallContent[] | null | undefined): RuntimeFileChange[] {
  return (content ?? []).flatMap((c) =>
    c.type === "diff"
      ? [
          {
            path: c.path,
            kind:
              c.oldText === null || c.oldText === undefined
                ? ("add" as const)
                : ("update" as const),
          },
        ]
      : [],
  );
}

function rawOutputText(raw: unknown): string | undefined {
  if (typeof raw === "string") return raw;
  if (isRecord(raw)) {
    for (const key of ["output", "stdout", "content", "result"]) {
      if (typeof raw[key] === "string") return raw[key] as string;
    }
  }
  return undefined;
}

/** The fields an item carries, read from a tool call (or an update of one) of `kind`. */
export function fieldsOf(
  kind: RuntimeItemKind,
  call: ToolCall | ToolCallUpdate,
  cwd: string,
): RuntimeItemFields {
  const fields: RuntimeItemFields = {};
  if (call.title) fields.toolName = call.title;
  if (call.rawInput !== undefined) fields.input = call.rawInput;
  // Content before the call ends describes it (Gemini: "[current working directory …]").
  const ended = call.status === "completed" || call.status === "failed";
  const output = ended ? (rawOutputText(call.rawOutput) ?? contentText(call.content)) : undefined;
  if (kind === "command_execution") {
    const command = commandOf(call);
    if (command !== undefined) fields.command = command;
    fields.cwd = cwd;
    if (output !== undefined) fields.output = output;
  } else if (kind === "file_change") {
    const changes = changesOf(call.content);
    const paths = (call.locations ?? []).map((l) => l.path);
    fields.changes =
      changes.length > 0 ? changes : paths.map((path) => ({ path, kind: "update" as const }));
  } else if (output !== undefined) {
    fields.result = output;
  }
  return fields;
}
