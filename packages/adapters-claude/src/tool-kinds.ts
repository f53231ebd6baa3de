import type {
  RuntimeFileChange,
  RuntimeItemFields,
  RuntimeItemKind,
  RuntimeQuestion,
  RuntimeRequestKind,
} from "@skein/domain/provider";
import { appToolNameOf } from "./app-tool-server.ts";
import { plannedDiff } from "./planned-diff.ts";

/** Claude Code's subagent tool: `Agent` today, `Task` in older builds and in `system/init`. */
export const SUBAGENT_TOOLS = new Set(["Agent", "Task"]);
const FILE_CHANGE_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
const FILE_READ_TOOLS = new Set(["Read", "Grep", "Glob", "LS"]);
const WEB_TOOLS = new Set(["WebSearch", "WebFetch"]);

export function isTodoTool(toolName: string): boolean {
  return toolName === "TodoWrite";
}

/** Claude Code's tool for leaving plan mode: its call carries the proposed plan (B5). */
export function isExitPlanTool(toolName: string): boolean {
  return toolName === "ExitPlanMode";
}

export function itemKindForTool(toolName: string): RuntimeItemKind {
  if (toolName === "Bash") return "command_execution";
  if (FILE_CHANGE_TOOLS.has(toolName)) return "file_change";
  if (FILE_READ_TOOLS.has(toolName)) return "file_search";
  if (WEB_TOOLS.has(toolName)) return "web_search";
  if (SUBAGENT_TOOLS.has(toolName)) return "subagent";
  return "dynamic_tool";
}

/** E15: which RuntimeRequest kind a `canUseTool` callback for this tool becomes. */
export function requestKindForTool(toolName: string): RuntimeRequestKind {
  if (toolName === "Bash") return "command";
  if (FILE_CHANGE_TOOLS.has(toolName)) return "file-change";
  if (FILE_READ_TOOLS.has(toolName)) return "file-read";
  if (toolName === "AskUserQuestion") return "user_input";
  return "dynamic_tool_call";
}

function str(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  return typeof value === "string" ? value : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The file a file tool targets, as a pending change with the diff its input plans (B16). */
export function plannedChanges(
  toolName: string,
  input: Record<string, unknown>,
): RuntimeFileChange[] {
  const path = str(input, "file_path") ?? str(input, "notebook_path");
  if (!path) return [];
  return [{ path, kind: toolName === "Write" ? "add" : "update", ...plannedDiff(toolName, input) }];
}

/** Item fields known when the model has issued the call. */
export function startFields(
  toolName: string,
  input: Record<string, unknown>,
  cwd: string,
): RuntimeItemFields {
  switch (itemKindForTool(toolName)) {
    case "command_execution":
      return { command: str(input, "command") ?? "", cwd };
    case "file_change":
      return { changes: plannedChanges(toolName, input) };
    case "file_search":
      return {
        query: str(input, "file_path") ?? str(input, "pattern") ?? str(input, "path") ?? toolName,
        toolName,
      };
    case "web_search":
      return { query: str(input, "query") ?? str(input, "url") ?? "" };
    case "subagent":
      return { description: str(input, "description") ?? str(input, "prompt") ?? "" };
    default:
      // App-owned tools show under the name the app gave them, not Claude's `mcp__skein__…`.
      return { toolName: appToolNameOf(toolName) ?? toolName, input };
  }
}

type PatchHunk = { oldStart?: number; newStart?: number; lines?: unknown };

function diffOf(patch: unknown): { diff: string; additions: number; deletions: number } {
  const hunks = Array.isArray(patch) ? (patch as PatchHunk[]) : [];
  const out: string[] = [];
  let additions = 0;
  let deletions = 0;
  for (const hunk of hunks) {
    const lines = Array.isArray(hunk.lines) ? hunk.lines.map(String) : [];
    out.push(`@@ -${hunk.oldStart ?? 0} +${hunk.newStart ?? 0} @@`, ...lines);
    additions += lines.filter((l) => l.startsWith("+")).length;
    deletions += lines.filter((l) => l.startsWith("-")).length;
  }
  return { diff: out.join("\n"), additions, deletions };
}

/**
 * Item fields once the tool has run, from the tool's structured output (`tool_use_result`) where
 * Claude Code gives one, else from the text the model saw.
 */
export function completionFields(
  toolName: string,
  start: RuntimeItemFields,
  structured: unknown,
  text: string,
  /** The tool result was an error (Claude Code's `is_error`). */
  isError = false,
): RuntimeItemFields {
  const output = record(structured);
  switch (itemKindForTool(toolName)) {
    case "command_execution": {
      const stdout = typeof output.stdout === "string" ? output.stdout : null;
      const stderr = typeof output.stderr === "string" ? output.stderr : "";
      const exitCode = bashExitCode(isError, output, text);
      return {
        ...start,
        output: stdout === null ? text : [stdout, stderr].filter(Boolean).join("\n"),
        ...(exitCode === null ? {} : { exitCode }),
      };
    }
    case "file_change": {
      const path = typeof output.filePath === "string" ? output.filePath : start.changes?.[0]?.path;
      if (!path) return { ...start, output: text };
      const created = output.type === "create";
      const content = typeof output.content === "string" ? output.content : "";
      const { diff, additions, deletions } = created
        ? {
            diff: content
              .split("\n")
              .map((l) => `+${l}`)
              .join("\n"),
            additions: content.split("\n").length,
            deletions: 0,
          }
        : diffOf(output.structuredPatch);
      return { changes: [{ path, kind: created ? "add" : "update", diff, additions, deletions }] };
    }
    case "subagent":
      return { ...start, result: text };
    default:
      // An app tool's structured output is just MCP content blocks; its text is the answer.
      if (appToolNameOf(toolName) !== null) return { ...start, output: text, result: text };
      return { ...start, output: text, result: structured ?? text };
  }
}

/**
 * B16: how a Bash call ended. Claude Code reports a non-zero exit as an error result saying
 * "Exit code N"; a result that is no error and was not interrupted exited 0. Null when unknown.
 */
export function bashExitCode(
  isError: boolean,
  output: Record<string, unknown>,
  text: string,
): number | null {
  if (output.interrupted === true) return null;
  if (!isError) return 0;
  const said = /Exit code (\d+)/i.exec(text);
  return said ? Number(said[1]) : null;
}

/**
 * AskUserQuestion's input as RuntimeQuestions (E17 `questions`). A question's id is its header
 * (short, readable), or its position when it has none or shares the header with another one, so
 * answers keyed by id always name one question.
 */
export function questionsOf(input: Record<string, unknown>): RuntimeQuestion[] {
  const questions = Array.isArray(input.questions) ? input.questions : [];
  const headers = questions.map((q) => record(q).header);
  const unique = (header: unknown): header is string =>
    typeof header === "string" &&
    header !== "" &&
    headers.indexOf(header) === headers.lastIndexOf(header);
  return questions.map((q, i) => {
    const entry = record(q);
    const options = Array.isArray(entry.options) ? entry.options.map(record) : [];
    return {
      id: unique(entry.header) ? entry.header : String(i),
      ...(typeof entry.header === "string" ? { header: entry.header } : {}),
      question: typeof entry.question === "string" ? entry.question : "",
      multiSelect: entry.multiSelect === true,
      options: options.map((o) => ({
        label: typeof o.label === "string" ? o.label : "",
        ...(typeof o.description === "string" ? { description: o.description } : {}),
      })),
    };
  });
}

/** TodoWrite's input as todo-list steps (E17). */
export function todoSteps(
  input: Record<string, unknown>,
): Array<{ text: string; status: "pending" | "running" | "completed" }> {
  const todos = Array.isArray(input.todos) ? input.todos.map(record) : [];
  return todos.map((t) => ({
    text: typeof t.content === "string" ? t.content : "",
    status:
      t.status === "completed" ? "completed" : t.status === "in_progress" ? "running" : "pending",
  }));
}

/**
 * Skein answers (keyed by the question ids `questionsOf` gave) as AskUserQuestion's `answers`,
 * which Claude Code keys by question text: with any other key the tool tells the model the user
 * did not answer. A key that already is a question's text passes through.
 */
export function askUserAnswers(
  input: Record<string, unknown>,
  answers: Record<string, string>,
): Record<string, string> {
  const textById = new Map(questionsOf(input).map((q) => [q.id, q.question]));
  return Object.fromEntries(
    Object.entries(answers).map(([key, value]) => [textById.get(key) ?? key, value]),
  );
}
