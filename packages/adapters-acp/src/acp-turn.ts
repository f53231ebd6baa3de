import { randomUUID } from "node:crypto";
import type { SessionUpdate, ToolCall, ToolCallUpdate } from "@agentclientprotocol/sdk";
import { AsyncQueue } from "@skein/adapter-kit";
import type {
  ProviderFailure,
  RuntimeEvent,
  RuntimeItemFields,
  RuntimeItemKind,
  RuntimeTurnStatus,
} from "@skein/domain/provider";
import { fieldsOf, itemKindOf } from "./tool-items.ts";
import type { TurnUsage } from "./usage.ts";

type OpenText = { itemRef: string; kind: "assistant_message" | "reasoning"; text: string };
type OpenTool = { kind: RuntimeItemKind; fields: RuntimeItemFields; declined: boolean };

/**
 * One `session/prompt` and everything the agent streamed for it, as Skein's runtime events:
 * message and thought chunks become text items, tool calls become items by their kind, plans
 * become todo lists. ACP has no turn ids (E10), so turns carry a null native ref.
 */
export class AcpTurn {
  readonly events = new AsyncQueue<RuntimeEvent>();
  private text: OpenText | null = null;
  private readonly tools = new Map<string, OpenTool>();
  private ended = false;
  cancelRequested = false;

  constructor(
    readonly sessionId: string,
    private readonly cwd: string,
  ) {
    this.emit({ type: "turn.started", nativeTurnRef: null });
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private emit(event: RuntimeEvent): void {
    if (!this.ended) this.events.push(event);
  }

  /** Maps one `session/update` of this turn's session. */
  apply(update: SessionUpdate, rawEventId: string | undefined): void {
    const raw = rawEventId === undefined ? {} : { rawEventId };
    switch (update.sessionUpdate) {
      case "agent_message_chunk":
      case "agent_thought_chunk": {
        if (update.content.type !== "text") return;
        const kind =
          update.sessionUpdate === "agent_message_chunk" ? "assistant_message" : "reasoning";
        this.appendText(kind, update.content.text, raw);
        return;
      }
      case "tool_call":
        this.closeText();
        this.startTool(update, raw);
        return;
      case "tool_call_update":
        this.updateTool(update, raw);
        return;
      case "plan":
        this.emit({
          type: "plan.updated",
          planRef: `plan:${this.sessionId}`,
          kind: "todo_list",
          steps: update.entries.map((entry) => ({
            text: entry.content,
            status:
              entry.status === "in_progress"
                ? "running"
                : entry.status === "completed"
                  ? "completed"
                  : "pending",
          })),
          ...raw,
        });
        return;
      default:
        return;
    }
  }

  private appendText(kind: OpenText["kind"], delta: string, raw: { rawEventId?: string }): void {
    if (delta.length === 0) return;
    if (this.text && this.text.kind !== kind) this.closeText();
    if (!this.text) {
      this.text = { itemRef: `${kind}:${randomUUID()}`, kind, text: "" };
      this.emit({ type: "item.started", itemRef: this.text.itemRef, kind, fields: {}, ...raw });
    }
    this.text.text += delta;
    this.emit({ type: "item.delta", itemRef: this.text.itemRef, field: "text", delta, ...raw });
  }

  private closeText(status: "completed" | "interrupted" = "completed"): void {
    const open = this.text;
    if (!open) return;
    this.text = null;
    this.emit({
      type: "item.completed",
      itemRef: open.itemRef,
      kind: open.kind,
      status,
      fields: { text: open.text },
    });
  }

  /** Starts the item of a tool call unless it is already open (a permission request may come first). */
  startTool(call: ToolCall | ToolCallUpdate, raw: { rawEventId?: string } = {}): void {
    if (this.tools.has(call.toolCallId)) return;
    const kind = itemKindOf(call.kind);
    const fields = fieldsOf(kind, call, this.cwd);
    this.tools.set(call.toolCallId, { kind, fields, declined: false });
    this.emit({ type: "item.started", itemRef: call.toolCallId, kind, fields, ...raw });
    if (call.status === "completed" || call.status === "failed") this.updateTool(call, raw);
  }

  private updateTool(update: ToolCallUpdate, raw: { rawEventId?: string }): void {
    const open = this.tools.get(update.toolCallId);
    if (!open) {
      this.closeText();
      this.startTool({ ...update, title: update.title ?? "tool" } as ToolCall, raw);
      return;
    }
    const fields = { ...open.fields, ...stripUndefined(fieldsOf(open.kind, update, this.cwd)) };
    open.fields = fields;
    if (update.status !== "completed" && update.status !== "failed") return;
    this.tools.delete(update.toolCallId);
    const status = open.declined ? "declined" : update.status;
    if (open.declined && open.kind === "command_execution") delete fields.output;
    this.emit({
      type: "item.completed",
      itemRef: update.toolCallId,
      kind: open.kind,
      status,
      fields,
      ...raw,
    });
  }

  /** The person declined the tool call: it ends `declined`, whatever the agent reports. */
  markDeclined(toolCallId: string): void {
    const open = this.tools.get(toolCallId);
    if (open) open.declined = true;
  }

  /** Passes a request event through, in order with the turn's items. */
  emitRequest(event: RuntimeEvent): void {
    this.emit(event);
  }

  /** Ends the turn failed, with its cause (B2) and the provider's words. */
  fail(failure: ProviderFailure, usage?: TurnUsage | null): void {
    this.finish("failed", failure.message, usage, failure);
  }

  /** Ends the turn: open items close, usage (when known) and `turn.completed` go out last. */
  finish(
    status: RuntimeTurnStatus,
    error?: string,
    usage?: TurnUsage | null,
    failure?: ProviderFailure,
  ): void {
    if (this.ended) return;
    const itemStatus = status === "completed" ? "completed" : "interrupted";
    this.closeText(itemStatus);
    for (const [itemRef, open] of [...this.tools]) {
      this.tools.delete(itemRef);
      this.emit({
        type: "item.completed",
        itemRef,
        kind: open.kind,
        status: open.declined ? "declined" : itemStatus,
        fields: open.fields,
      });
    }
    if (usage) this.emit({ type: "usage", ...usage });
    this.emit({
      type: "turn.completed",
      nativeTurnRef: null,
      status,
      ...(error === undefined ? {} : { error }),
      ...(failure === undefined ? {} : { failure }),
    });
    this.ended = true;
    this.events.end();
  }
}

function stripUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
