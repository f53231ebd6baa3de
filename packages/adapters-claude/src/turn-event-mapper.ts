import type {
  SDKAssistantMessage,
  SDKMessage,
  SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import type { RuntimeEvent, RuntimeItemFields, RuntimeItemKind } from "@skein/domain/provider";
import { AsyncChannel } from "./async-channel.ts";
import type { SdkEnvelope } from "./claude-turn.ts";
import { DeltaCoalescer } from "./delta-coalescer.ts";
import type { ToolPermissionRequest } from "./permissions.ts";
import {
  completionFields,
  isTodoTool,
  itemKindForTool,
  plannedChanges,
  questionsOf,
  requestKindForTool,
  startFields,
  todoSteps,
} from "./tool-kinds.ts";
import type { ClaudeTurnOutcome } from "./turn-outcome.ts";

/** How long a permission request may wait for its tool_use item before it is emitted anyway. */
const REQUEST_WAIT_MS = 100;

type OpenItem = {
  kind: RuntimeItemKind;
  parentItemRef: string | null;
  fields: RuntimeItemFields;
  toolName: string | null;
};

type StreamEvent = Extract<SDKMessage, { type: "stream_event" }>["event"];

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: unknown) =>
      typeof b === "object" && b !== null && "text" in b && typeof b.text === "string"
        ? b.text
        : "",
    )
    .join("");
}

/**
 * Turns one Claude turn's SDK messages into normalized runtime events. Item refs are native:
 * `<api message id>:<block index>` for text and thinking, the `tool_use` id for tool calls, so
 * child (subagent) items point at their Agent call through `parentItemRef`.
 */
export class TurnEventMapper {
  private readonly channel = new AsyncChannel<RuntimeEvent>();
  private readonly out = new DeltaCoalescer((event) => this.channel.push(event));
  private readonly open = new Map<string, OpenItem>();
  private readonly blockCounts = new Map<string, number>();
  private readonly declined = new Set<string>();
  private readonly plans = new Set<string>();
  private readonly deferred = new Map<
    string,
    { request: ToolPermissionRequest; timer: NodeJS.Timeout }
  >();
  private streamMessageId: string | null = null;
  private isStarted = false;
  private resolveStarted!: (value: { nativeTurnRef: string | null }) => void;
  readonly started = new Promise<{ nativeTurnRef: string | null }>((resolve) => {
    this.resolveStarted = resolve;
  });

  /**
   * @param turnRef the turn's native ref (E10: the uuid Skein gives the turn's user message, known
   *   before Claude answers); null falls back to the turn's last transcript entry, on completion.
   */
  constructor(
    private readonly cwd: string,
    private readonly turnRef: string | null = null,
  ) {}

  get events(): AsyncIterable<RuntimeEvent> {
    return this.channel;
  }

  handle(envelope: SdkEnvelope): void {
    const { message, rawEventId } = envelope;
    this.markStarted(rawEventId);
    if (message.type === "stream_event") {
      if (message.parent_tool_use_id === null) this.onStreamEvent(message.event, rawEventId);
    } else if (message.type === "assistant") {
      this.onAssistant(message, rawEventId);
    } else if (message.type === "user") {
      this.onUser(message, rawEventId);
    } else if (message.type === "result") {
      const usage = message.usage;
      this.out.event({
        type: "usage",
        inputTokens: usage.input_tokens,
        outputTokens: usage.output_tokens,
        cachedInputTokens: usage.cache_read_input_tokens ?? 0,
        rawEventId,
      });
    }
  }

  /**
   * A `canUseTool` callback became a pending RuntimeRequest (E15). The SDK can call back before
   * the tool_use message that names the call has been read, so the request waits (briefly) for
   * its item to start.
   */
  requestOpened(request: ToolPermissionRequest): void {
    this.markStarted(undefined);
    if (this.open.has(request.toolUseId)) {
      this.emitRequest(request);
      return;
    }
    const timer = setTimeout(() => this.releaseRequest(request.toolUseId), REQUEST_WAIT_MS);
    this.deferred.set(request.toolUseId, { request, timer });
  }

  private releaseRequest(toolUseId: string): void {
    const waiting = this.deferred.get(toolUseId);
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.deferred.delete(toolUseId);
    this.emitRequest(waiting.request);
  }

  private emitRequest(request: ToolPermissionRequest): void {
    const { toolName, input } = request;
    const kind = requestKindForTool(toolName);
    this.out.event({
      type: "request.opened",
      requestRef: request.requestId,
      kind,
      itemRef: request.toolUseId,
      summary: summaryOf(request, kind),
      toolName,
      input,
      ...(kind === "command"
        ? { command: typeof input.command === "string" ? input.command : "", cwd: this.cwd }
        : {}),
      ...(kind === "file-change" ? { changes: plannedChanges(toolName, input) } : {}),
      ...(kind === "user_input" ? { questions: questionsOf(input) } : {}),
    });
  }

  /** The app declined the call: its tool result (an error) completes the item as `declined`. */
  requestDeclined(toolUseId: string): void {
    this.declined.add(toolUseId);
  }

  requestClosed(request: ToolPermissionRequest, reason: string): void {
    this.releaseRequest(request.toolUseId);
    this.out.event({ type: "request.closed", requestRef: request.requestId, reason });
  }

  /** Ends the stream: closes items left open, then `turn.completed`. */
  finish(outcome: ClaudeTurnOutcome): void {
    this.markStarted(undefined);
    for (const toolUseId of [...this.deferred.keys()]) this.releaseRequest(toolUseId);
    const status =
      outcome.status === "completed"
        ? "completed"
        : outcome.status === "failed"
          ? "failed"
          : "interrupted";
    for (const [itemRef, item] of this.open) {
      const { kind, parentItemRef, fields } = item;
      this.out.event({ type: "item.completed", itemRef, kind, parentItemRef, status, fields });
    }
    this.open.clear();
    this.out.event({
      type: "turn.completed",
      nativeTurnRef: this.turnRef ?? outcome.lastEntryUuid ?? outcome.lastAssistantUuid,
      status: outcome.status,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    this.channel.close();
  }

  private markStarted(rawEventId: string | undefined): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.out.event({
      type: "turn.started",
      nativeTurnRef: this.turnRef,
      ...(rawEventId ? { rawEventId } : {}),
    });
    this.resolveStarted({ nativeTurnRef: this.turnRef });
  }

  private startItem(itemRef: string, item: OpenItem, rawEventId: string): void {
    if (this.open.has(itemRef)) return;
    this.open.set(itemRef, item);
    const { kind, parentItemRef, fields } = item;
    this.out.event({ type: "item.started", itemRef, kind, parentItemRef, fields, rawEventId });
    this.releaseRequest(itemRef);
  }

  private completeItem(
    itemRef: string,
    status: "completed" | "failed" | "declined",
    fields: RuntimeItemFields,
    rawEventId: string,
  ): void {
    const item = this.open.get(itemRef);
    if (!item) return;
    this.open.delete(itemRef);
    const { kind, parentItemRef } = item;
    this.out.event({
      type: "item.completed",
      itemRef,
      kind,
      parentItemRef,
      status,
      fields,
      rawEventId,
    });
  }

  private onStreamEvent(event: StreamEvent, rawEventId: string): void {
    if (event.type === "message_start") {
      this.streamMessageId = event.message.id;
      return;
    }
    const ref =
      this.streamMessageId && "index" in event ? `${this.streamMessageId}:${event.index}` : null;
    if (!ref) return;
    if (event.type === "content_block_start") {
      const block = event.content_block.type;
      if (block !== "text" && block !== "thinking") return;
      const kind = block === "text" ? "assistant_message" : "reasoning";
      this.startItem(ref, { kind, parentItemRef: null, fields: {}, toolName: null }, rawEventId);
    } else if (event.type === "content_block_delta" && this.open.has(ref)) {
      const delta = event.delta;
      const text =
        delta.type === "text_delta"
          ? delta.text
          : delta.type === "thinking_delta"
            ? delta.thinking
            : null;
      if (text)
        this.out.delta({
          type: "item.delta",
          itemRef: ref,
          field: "text",
          delta: text,
          rawEventId,
        });
    }
  }

  private onAssistant(message: SDKAssistantMessage, rawEventId: string): void {
    // A synthetic message carrying an API error: the turn's result reports it.
    if (message.error !== undefined) return;
    const parentItemRef = message.parent_tool_use_id;
    const apiId = message.message.id;
    for (const block of message.message.content) {
      const index = this.blockCounts.get(apiId) ?? 0;
      this.blockCounts.set(apiId, index + 1);
      const ref = `${apiId}:${index}`;
      if (block.type === "text" || block.type === "thinking") {
        const kind = block.type === "text" ? "assistant_message" : "reasoning";
        const text = block.type === "text" ? block.text : block.thinking;
        this.startItem(ref, { kind, parentItemRef, fields: {}, toolName: null }, rawEventId);
        this.completeItem(ref, "completed", { text }, rawEventId);
      } else if (block.type === "tool_use") {
        const input =
          typeof block.input === "object" && block.input !== null
            ? (block.input as Record<string, unknown>)
            : {};
        if (isTodoTool(block.name)) {
          this.plans.add(block.id);
          this.out.event({
            type: "plan.updated",
            planRef: block.id,
            kind: "todo_list",
            steps: todoSteps(input),
            rawEventId,
          });
          continue;
        }
        const item: OpenItem = {
          kind: itemKindForTool(block.name),
          parentItemRef,
          fields: startFields(block.name, input, this.cwd),
          toolName: block.name,
        };
        this.startItem(block.id, item, rawEventId);
      }
    }
  }

  private onUser(message: SDKUserMessage, rawEventId: string): void {
    const content = message.message.content;
    if (typeof content === "string") return;
    for (const block of content) {
      if (block.type !== "tool_result") continue;
      const item = this.open.get(block.tool_use_id);
      if (!item || this.plans.has(block.tool_use_id)) continue;
      const text = textOf(block.content);
      const status = this.declined.has(block.tool_use_id)
        ? "declined"
        : block.is_error
          ? "failed"
          : "completed";
      const fields = completionFields(
        item.toolName ?? "",
        item.fields,
        message.tool_use_result,
        text,
      );
      this.completeItem(block.tool_use_id, status, fields, rawEventId);
    }
  }
}

/** What a person reads on the request: for a question, the questions themselves. */
function summaryOf(request: ToolPermissionRequest, kind: string): string {
  if (kind === "user_input") {
    const asked = questionsOf(request.input)
      .map((q) => q.question)
      .filter((text) => text !== "");
    if (asked.length > 0) return asked.join(" / ");
  }
  return request.title ?? request.description ?? request.toolName;
}
