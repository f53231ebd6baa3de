import type { RuntimeFileChange, RuntimeItemFields, RuntimeItemKind } from "@skein/domain/provider";
import type { ThreadItem } from "../protocol/index.ts";
import { codexFileChange } from "./file-change-diff.ts";

export type MappedItem = { kind: RuntimeItemKind; fields: RuntimeItemFields };
export type ItemEndStatus = "completed" | "failed" | "declined" | "interrupted";

/**
 * A Codex thread item as a normalized runtime item, or null for items Skein does not model
 * (review-mode markers, hook prompts, images, sleeps). Plans are not items in Skein: the turn
 * mapper turns a `plan` item into a `plan.updated` event instead.
 */
export function mapItem(item: ThreadItem): MappedItem | null {
  switch (item.type) {
    case "userMessage":
      return {
        kind: "user_message",
        fields: {
          text: item.content
            .flatMap((part) => (part.type === "text" ? [part.text] : []))
            .join("\n"),
        },
      };
    case "agentMessage":
      return { kind: "assistant_message", fields: { text: item.text } };
    case "reasoning":
      return { kind: "reasoning", fields: { text: [...item.summary, ...item.content].join("\n") } };
    case "commandExecution":
      return {
        kind: "command_execution",
        fields: withDefined({
          command: item.command,
          cwd: item.cwd,
          output: item.aggregatedOutput ?? undefined,
          exitCode: item.status === "inProgress" ? undefined : item.exitCode,
        }),
      };
    case "fileChange":
      return { kind: "file_change", fields: { changes: item.changes.map(mapFileChange) } };
    case "webSearch":
      return { kind: "web_search", fields: { query: item.query } };
    case "dynamicToolCall":
      return {
        kind: "dynamic_tool",
        fields: withDefined({
          toolName: item.namespace ? `${item.namespace}/${item.tool}` : item.tool,
          input: item.arguments,
          result: item.contentItems ? toolOutputText(item.contentItems) : undefined,
        }),
      };
    case "mcpToolCall":
      return {
        kind: "dynamic_tool",
        fields: withDefined({
          toolName: `${item.server}/${item.tool}`,
          input: item.arguments,
          result: item.result ?? item.error ?? undefined,
        }),
      };
    case "contextCompaction":
      return { kind: "compaction", fields: {} };
    case "collabAgentToolCall":
      // Only a spawn is a sub-agent (T9); waiting on, messaging or closing agents are tool calls.
      if (item.tool === "spawnAgent") {
        return {
          kind: "subagent",
          fields: withDefined({
            description: item.prompt ?? undefined,
            agentThreadRefs: item.receiverThreadIds.length ? item.receiverThreadIds : undefined,
          }),
        };
      }
      return {
        kind: "dynamic_tool",
        fields: withDefined({
          toolName: `agents/${item.tool}`,
          input: { receiverThreadIds: item.receiverThreadIds, prompt: item.prompt },
          result: item.status === "inProgress" ? undefined : item.agentsStates,
        }),
      };
    case "subAgentActivity":
      // multi_agent_v2 reports a spawn as a `started` activity; the other kinds are notices.
      if (item.kind !== "started") return null;
      return {
        kind: "subagent",
        fields: { description: item.agentPath, agentThreadRefs: [item.agentThreadId] },
      };
    default:
      return null;
  }
}

/** How a completed item ended; items without their own status completed normally. */
export function itemEndStatus(item: ThreadItem): ItemEndStatus {
  switch (item.type) {
    case "commandExecution":
    case "fileChange":
      return item.status === "inProgress" ? "completed" : item.status;
    case "dynamicToolCall":
    case "mcpToolCall":
      return item.status === "failed" ? "failed" : "completed";
    case "collabAgentToolCall":
      return item.status === "inProgress" ? "completed" : item.status;
    default:
      return "completed";
  }
}

function mapFileChange(change: {
  path: string;
  kind: { type: "add" | "delete" | "update" };
  diff: string;
}): RuntimeFileChange {
  return codexFileChange(change.path, change.kind.type, change.diff);
}

export function toolOutputText(items: ReadonlyArray<{ type: string; text?: string }>): string {
  return items.flatMap((item) => (typeof item.text === "string" ? [item.text] : [])).join("\n");
}

/** Drops undefined values so fields stay JSON-clean and absent means "not reported". */
function withDefined(fields: Record<string, unknown>): RuntimeItemFields {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as RuntimeItemFields;
}
