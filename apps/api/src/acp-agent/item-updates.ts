import type { SessionUpdate, ToolCallStatus, ToolKind } from "@agentclientprotocol/sdk";
import type { PlanArtifact, TurnItem, TurnItemStatus } from "@skein/domain";

/**
 * How Skein's turn items (P6) read as ACP session updates: messages as message chunks, tool work
 * (commands, file changes, searches, app tools) as tool calls, todo lists as plans. The same
 * mapping serves a live run (`run-updates.ts`) and a reloaded history (`session/load`).
 */

/** A tool output past this many characters is cut in what the editor is sent. */
const MAX_OUTPUT_CHARS = 20_000;

function cut(text: string): string {
  return text.length <= MAX_OUTPUT_CHARS
    ? text
    : `${text.slice(0, MAX_OUTPUT_CHARS)}… [${text.length - MAX_OUTPUT_CHARS} more characters]`;
}

export function toolStatus(status: TurnItemStatus): ToolCallStatus {
  if (status === "completed") return "completed";
  if (status === "pending") return "pending";
  if (status === "running") return "in_progress";
  return "failed";
}

type ToolItem = Extract<
  TurnItem,
  { type: "command_execution" | "file_change" | "file_search" | "web_search" | "dynamic_tool" }
>;

export function isToolItem(item: TurnItem): item is ToolItem {
  return (
    item.type === "command_execution" ||
    item.type === "file_change" ||
    item.type === "file_search" ||
    item.type === "web_search" ||
    item.type === "dynamic_tool"
  );
}

function describe(item: ToolItem): { title: string; kind: ToolKind } {
  switch (item.type) {
    case "command_execution":
      return { title: item.input, kind: "execute" };
    case "file_change":
      return { title: `Edit ${item.fileName}`, kind: "edit" };
    case "file_search":
      return { title: `Search ${item.query}`, kind: "search" };
    case "web_search":
      return { title: `Web search ${item.query}`, kind: "fetch" };
    case "dynamic_tool":
      return { title: item.toolName ?? "Tool", kind: "other" };
  }
}

function toolContent(item: ToolItem) {
  if (item.type === "file_change" && item.newStr !== undefined) {
    return [
      {
        type: "diff" as const,
        path: item.fileName,
        oldText: item.oldStr ?? null,
        newText: item.newStr,
      },
    ];
  }
  const text =
    item.type === "command_execution"
      ? item.output
      : item.type === "file_change"
        ? item.diffStr
        : item.type === "dynamic_tool" && item.output !== undefined
          ? JSON.stringify(item.output)
          : undefined;
  if (!text) return [];
  return [{ type: "content" as const, content: { type: "text" as const, text: cut(text) } }];
}

/** A tool item as it starts (`tool_call`), with whatever it already holds. */
export function toolCallOf(item: ToolItem): SessionUpdate {
  const { title, kind } = describe(item);
  return {
    sessionUpdate: "tool_call",
    toolCallId: item.id,
    title,
    kind,
    status: toolStatus(item.status),
    content: toolContent(item),
    ...(item.type === "file_change" ? { locations: [{ path: item.fileName }] } : {}),
    rawInput: item.type === "dynamic_tool" ? item.input : { title },
  };
}

/** The same tool item once it ended (`tool_call_update`). */
export function toolEndOf(item: ToolItem): SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: item.id,
    status: toolStatus(item.status),
    content: toolContent(item),
  };
}

export function textChunk(
  kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
  text: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: "text", text } };
}

/** A todo list as an ACP plan; a proposed plan is said in words. */
export function planUpdateOf(
  plan: Pick<PlanArtifact, "kind" | "steps" | "markdown">,
): SessionUpdate | null {
  if (plan.kind === "todo_list") {
    return {
      sessionUpdate: "plan",
      entries: (plan.steps ?? []).map((step) => ({
        content: step.text,
        priority: "medium",
        status: step.status === "running" ? "in_progress" : step.status,
      })),
    };
  }
  if (plan.kind === "proposed_plan" && plan.markdown) {
    return textChunk("agent_message_chunk", plan.markdown);
  }
  return null;
}

/** A settled item of a thread's history, replayed for `session/load`. */
export function historyUpdatesOf(item: TurnItem): SessionUpdate[] {
  switch (item.type) {
    case "user_message":
      return [textChunk("user_message_chunk", item.text)];
    case "assistant_message":
      return item.text ? [textChunk("agent_message_chunk", item.text)] : [];
    case "reasoning":
      return item.text ? [textChunk("agent_thought_chunk", item.text)] : [];
    case "plan": {
      const update = planUpdateOf(item);
      return update ? [update] : [];
    }
    case "command_execution":
    case "file_change":
    case "file_search":
    case "web_search":
    case "dynamic_tool":
      return [toolCallOf(item)];
    case "approval_request":
    case "checkpoint":
    case "compaction":
    case "handoff":
    case "fork":
    case "git":
      return [];
  }
}
