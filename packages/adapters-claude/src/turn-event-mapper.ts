import type {
  SDKAssistantMessage,
  SDKResultMessage,
  SDKMessage,
  SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import type { RuntimeEvent, RuntimeItemFields, RuntimeItemKind } from "@skein/domain/provider";
import { AsyncQueue } from "@skein/adapter-kit";
import type { SdkEnvelope } from "./claude-turn.ts";
import { DeltaCoalescer } from "@skein/adapter-kit";
import type { ToolPermissionRequest } from "./permissions.ts";
import {
  completionFields,
  isTodoTool,
  itemKindForTool,
  plannedChanges,
  questionsOf,
  requestKindForTool,
  startFields,
  isExitPlanTool,
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

const COMPACTION_ITEM: OpenItem = {
  kind: "compaction",
  parentItemRef: null,
  fields: {},
  toolName: null,
};

const HOOK_ITEM: OpenItem = { kind: "hook", parentItemRef: null, fields: {}, toolName: null };

const HOOK_STATUS = { success: "completed", error: "failed", cancelled: "interrupted" } as const;

type StreamEvent = Extract<SDKMessage, { type: "stream_event" }>["event"];

/** The user message Claude Code adds when a turn is interrupted. */
const INTERRUPT_MARKER = /^\[Request interrupted/;

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

/** How long text deltas are merged before they go out (one event per frame, not per token). */
const DELTA_WINDOW_MS = 50;

/**
 * Turns one Claude turn's SDK messages into normalized runtime events. Item refs are native:
 * `<api message id>:<block index>` for text and thinking, the `tool_use` id for tool calls, so
 * child (subagent) items point at their Agent call through `parentItemRef`.
 */
export class TurnEventMapper {
  private readonly channel = new AsyncQueue<RuntimeEvent>();
  private readonly out = new DeltaCoalescer((event) => this.channel.push(event), DELTA_WINDOW_MS);
  private readonly open = new Map<string, OpenItem>();
  private readonly blockCounts = new Map<string, number>();
  private readonly declined = new Set<string>();
  private readonly plans = new Set<string>();
  private readonly proposedPlans = new Set<string>();
  private readonly deferred = new Map<
    string,
    { request: ToolPermissionRequest; timer: NodeJS.Timeout }
  >();
  /** T9: Agent/Task calls whose sub-agent is followed as a child (all of them, ever). */
  private readonly followed = new Set<string>();
  /** Those whose sub-agent has not reported back yet. */
  private readonly runningSubagents = new Set<string>();
  /** Those running in the background: their call returns at once, their end comes as a task. */
  private readonly backgrounded = new Set<string>();
  /**
   * T9: sub-agent tasks Claude resumed (SendMessage to a finished agent), by task id: the call
   * that resumed it and what it was asked. Its messages still name its first Agent call.
   */
  private readonly resumes = new Map<string, { callRef: string; prompt: string | undefined }>();
  /** A resuming call's ref → the Agent call ref its sub-agent is followed under. */
  private readonly resumedBy = new Map<string, string>();
  /** The sub-agent that asked each open request, if one did. */
  private readonly requestScopes = new Map<string, string>();
  private streamMessageId: string | null = null;
  /** Streamed text/thinking blocks whose assistant message came but whose stream has not ended. */
  private readonly awaitingStop = new Set<string>();
  /** Streamed blocks whose `content_block_stop` came before their assistant message. */
  private readonly stopped = new Set<string>();
  private readonly usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, costUsd: 0 };
  /** The main loop's latest model response: its model, and how full it left the context. */
  private lastResponse: {
    model: string;
    messageId: string;
    readTokens: number;
    outputTokens: number;
  } | null = null;
  private isStarted = false;
  /** B8: the latest result message's frame: the turn's end frame. */
  private endFrame: string | undefined;
  /** The compaction item Claude is working on ("compacting" status seen, no boundary yet). */
  private compacting: string | null = null;
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

  /**
   * @param resultCostUsd for a result message: what this result cost. The SDK's `total_cost_usd`
   *   counts from the start of its process, so the session works the difference out.
   */
  handle(envelope: SdkEnvelope, resultCostUsd?: number): void {
    const { message, rawEventId } = envelope;
    this.markStarted(rawEventId);
    if (message.type === "stream_event") {
      if (message.parent_tool_use_id === null) this.onStreamEvent(message.event, rawEventId);
    } else if (message.type === "assistant") {
      this.onAssistant(message, rawEventId);
    } else if (message.type === "user") {
      this.onUser(message, rawEventId);
    } else if (message.type === "system") {
      this.onSystem(message, rawEventId);
    } else if (message.type === "result") {
      this.endFrame = rawEventId;
      // A steered turn gets one result per CLI turn: the turn's usage is their sum.
      const usage = message.usage;
      this.usage.inputTokens += usage.input_tokens;
      this.usage.outputTokens += usage.output_tokens;
      this.usage.cachedInputTokens += usage.cache_read_input_tokens ?? 0;
      this.usage.costUsd += resultCostUsd ?? 0;
      this.out.emit({ type: "usage", ...this.usage, ...this.contextFill(message), rawEventId });
    }
  }

  /**
   * P6: a compaction is one item, running from Claude's "compacting" status until its compact
   * boundary (or a failed compact result). An automatic compaction may come as a boundary alone.
   */
  private onSystem(
    message: SdkEnvelope["message"] & { type: "system" },
    rawEventId: string | undefined,
  ): void {
    if (message.subtype === "task_started") {
      const callRef = message.tool_use_id;
      if (callRef && message.is_backgrounded) this.backgrounded.add(callRef);
      if (callRef && message.task_type === "local_agent" && !this.followed.has(callRef)) {
        this.resumes.set(message.task_id, { callRef, prompt: message.prompt });
      }
    } else if (message.subtype === "task_notification") {
      const ref = message.tool_use_id;
      const subagent = ref ? (this.resumedBy.get(ref) ?? ref) : undefined;
      if (ref && subagent && this.backgrounded.has(ref) && this.runningSubagents.delete(subagent)) {
        const status = message.status === "stopped" ? "interrupted" : message.status;
        this.subagentEnded(subagent, status, rawEventId);
      }
    } else if (message.subtype === "status") {
      if (message.status === "compacting" && this.compacting === null) {
        this.compacting = `compaction:${message.uuid}`;
        this.startItem(this.compacting, COMPACTION_ITEM, rawEventId);
      } else if (message.compact_result === "failed" && this.compacting !== null) {
        this.completeItem(this.compacting, "failed", {}, rawEventId);
        this.compacting = null;
      }
    } else if (message.subtype === "api_retry") {
      // B15: the CLI retries a model request that failed (no answer, 5xx, overload…).
      const cause =
        message.error_status === null
          ? "no answer from the model service"
          : `HTTP ${message.error_status}${message.error === "unknown" ? "" : ` ${message.error}`}`;
      this.out.emit({
        type: "model.retrying",
        attempt: message.attempt,
        maxAttempts: message.max_retries,
        cause,
        rawEventId,
      });
    } else if (message.subtype === "hook_started") {
      // E5: a hook Claude Code ran (settings hooks); its `hook_id` is Claude's own (strong, E18).
      const fields = { summary: `${message.hook_event}: ${message.hook_name}` };
      this.startItem(`hook:${message.hook_id}`, { ...HOOK_ITEM, fields }, rawEventId);
    } else if (message.subtype === "hook_response") {
      const status = HOOK_STATUS[message.outcome];
      this.completeItem(`hook:${message.hook_id}`, status, {}, rawEventId);
    } else if (message.subtype === "compact_boundary") {
      const itemRef = this.compacting ?? `compaction:${message.uuid}`;
      this.compacting = null;
      this.startItem(itemRef, COMPACTION_ITEM, rawEventId);
      this.completeItem(itemRef, "completed", {}, rawEventId);
    }
  }

  /**
   * A `canUseTool` callback became a pending RuntimeRequest (E15). The SDK can call back before
   * the tool_use message that names the call has been read, so the request waits (briefly) for
   * its item to start.
   */
  requestOpened(request: ToolPermissionRequest): void {
    this.markStarted(request.rawEventId);
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
    const scope = this.scope(this.open.get(request.toolUseId)?.parentItemRef ?? null);
    if (scope.childThreadRef) this.requestScopes.set(request.requestId, scope.childThreadRef);
    this.out.emit({
      ...scope,
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
      ...(request.rawEventId === undefined ? {} : { rawEventId: request.rawEventId }),
    });
  }

  /** The app declined the call: its tool result (an error) completes the item as `declined`. */
  /**
   * A proposed plan (B5), from the `ExitPlanMode` call or, where Claude Code keeps the plan in a
   * file and only hands it to the permission callback, from there; reported once per call.
   */
  proposedPlan(toolUseId: string, markdown: string, rawEventId?: string): void {
    if (this.proposedPlans.has(toolUseId)) return;
    this.proposedPlans.add(toolUseId);
    this.plans.add(toolUseId);
    this.markStarted(undefined);
    this.out.emit({
      type: "plan.updated",
      planRef: toolUseId,
      kind: "proposed_plan",
      markdown,
      ...(rawEventId === undefined ? {} : { rawEventId }),
    });
  }

  requestDeclined(toolUseId: string): void {
    this.declined.add(toolUseId);
  }

  requestClosed(request: ToolPermissionRequest, reason: string): void {
    this.releaseRequest(request.toolUseId);
    const childThreadRef = this.requestScopes.get(request.requestId);
    this.requestScopes.delete(request.requestId);
    this.out.emit({
      type: "request.closed",
      requestRef: request.requestId,
      reason,
      ...(childThreadRef === undefined ? {} : { childThreadRef }),
    });
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
    for (const [itemRef, item] of [...this.open]) {
      this.completeItem(itemRef, status, item.fields, undefined);
    }
    // Background sub-agents still working are no longer followed once the turn is over.
    for (const ref of [...this.runningSubagents]) {
      this.runningSubagents.delete(ref);
      const ended = status === "completed" ? "interrupted" : status;
      this.subagentEnded(ref, ended, undefined, "the parent turn ended before the sub-agent did");
    }
    this.out.emit({
      type: "turn.completed",
      nativeTurnRef: this.turnRef ?? outcome.lastEntryUuid ?? outcome.lastAssistantUuid,
      status: outcome.status,
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.failure ? { failure: outcome.failure } : {}),
      ...(this.endFrame === undefined ? {} : { rawEventId: this.endFrame }),
    });
    this.channel.end();
  }

  private markStarted(rawEventId: string | undefined): void {
    if (this.isStarted) return;
    this.isStarted = true;
    this.out.emit({
      type: "turn.started",
      nativeTurnRef: this.turnRef,
      ...(rawEventId ? { rawEventId } : {}),
    });
    this.resolveStarted({ nativeTurnRef: this.turnRef });
  }

  private startItem(itemRef: string, item: OpenItem, rawEventId: string | undefined): void {
    if (this.open.has(itemRef)) return;
    this.open.set(itemRef, item);
    const { kind, parentItemRef, fields } = item;
    this.out.emit({
      ...this.scope(parentItemRef),
      type: "item.started",
      itemRef,
      kind,
      parentItemRef,
      fields,
      rawEventId,
    });
    if (kind === "subagent") {
      // T9: the sub-agent's own messages (`parent_tool_use_id` = this call) go to a child.
      this.followed.add(itemRef);
      this.runningSubagents.add(itemRef);
      this.out.emit({
        type: "subagent.started",
        childThreadRef: itemRef,
        nativeTurnRef: null,
        parentItemRef: itemRef,
        ...(fields.description ? { description: fields.description } : {}),
        resumable: false,
        rawEventId,
      });
    }
    this.releaseRequest(itemRef);
  }

  /** Items inside a followed sub-agent name it as their `childThreadRef` (T9). */
  private scope(parentItemRef: string | null): { childThreadRef?: string } {
    return parentItemRef !== null && this.followed.has(parentItemRef)
      ? { childThreadRef: parentItemRef }
      : {};
  }

  private completeItem(
    itemRef: string,
    status: "completed" | "failed" | "declined" | "interrupted",
    fields: RuntimeItemFields,
    rawEventId: string | undefined,
  ): void {
    const item = this.open.get(itemRef);
    if (!item) return;
    this.open.delete(itemRef);
    const { kind, parentItemRef } = item;
    this.out.emit({
      ...this.scope(parentItemRef),
      type: "item.completed",
      itemRef,
      kind,
      parentItemRef,
      status,
      fields,
      rawEventId,
    });
    // A background sub-agent's call returns when it is launched; it ends with its task.
    const subagent = this.resumedBy.get(itemRef) ?? itemRef;
    if (!this.backgrounded.has(itemRef) && this.runningSubagents.delete(subagent)) {
      const ended = status === "completed" || status === "interrupted" ? status : "failed";
      this.subagentEnded(subagent, ended, rawEventId);
    }
  }

  /**
   * T9: a finished sub-agent Claude resumed speaks again under its first Agent call, which may
   * belong to an earlier turn (or an earlier process). It is followed again under that call's
   * ref, so its new turn lands in the same child thread, started by the call that resumed it.
   */
  private followResumed(message: { parent_tool_use_id: string | null }, rawEventId?: string) {
    const agentRef = message.parent_tool_use_id;
    const agentId = (message as { agent_id?: unknown }).agent_id;
    if (agentRef === null || this.followed.has(agentRef) || typeof agentId !== "string") return;
    const resume = this.resumes.get(agentId);
    if (!resume) return;
    this.resumes.delete(agentId);
    this.followed.add(agentRef);
    this.runningSubagents.add(agentRef);
    this.resumedBy.set(resume.callRef, agentRef);
    this.out.emit({
      type: "subagent.started",
      childThreadRef: agentRef,
      nativeTurnRef: null,
      parentItemRef: resume.callRef,
      ...(resume.prompt ? { description: resume.prompt } : {}),
      resumable: false,
      ...(rawEventId === undefined ? {} : { rawEventId }),
    });
  }

  private subagentEnded(
    childThreadRef: string,
    status: "completed" | "interrupted" | "failed",
    rawEventId: string | undefined,
    error?: string,
  ): void {
    this.out.emit({
      type: "subagent.completed",
      childThreadRef,
      nativeTurnRef: null,
      status,
      ...(error === undefined ? {} : { error }),
      ...(rawEventId === undefined ? {} : { rawEventId }),
    });
  }

  private onStreamEvent(event: StreamEvent, rawEventId: string | undefined): void {
    if (event.type === "message_start") {
      this.streamMessageId = event.message.id;
      return;
    }
    // The response's final output count comes last, after its assistant message.
    if (event.type === "message_delta") {
      const last = this.lastResponse;
      if (last?.messageId === this.streamMessageId) last.outputTokens = event.usage.output_tokens;
      return;
    }
    const ref =
      this.streamMessageId && "index" in event ? `${this.streamMessageId}:${event.index}` : null;
    if (!ref) return;
    if (event.type === "content_block_stop") {
      const item = this.open.get(ref);
      if (item && this.awaitingStop.delete(ref)) {
        this.completeItem(ref, "completed", item.fields, rawEventId);
      } else {
        this.stopped.add(ref);
      }
      return;
    }
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

  /** Everything the model read and wrote in this response is in the context of the next one. */
  private noteResponse(response: SDKAssistantMessage["message"]): void {
    const u = response.usage;
    if (!u) return;
    const readTokens =
      u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    const known = this.lastResponse?.messageId === response.id ? this.lastResponse : null;
    this.lastResponse = {
      model: response.model,
      messageId: response.id,
      readTokens,
      outputTokens: Math.max(known?.outputTokens ?? 0, u.output_tokens),
    };
  }

  /**
   * Issue 29's context meter: the fill after the latest main-loop response, against the window
   * Claude Code gives that model in the result's per-model usage.
   */
  private contextFill(result: SDKResultMessage): {
    contextTokens?: number;
    contextWindow?: number;
  } {
    const last = this.lastResponse;
    if (last === null) return {};
    const contextTokens = last.readTokens + last.outputTokens;
    const window = result.modelUsage?.[last.model]?.contextWindow;
    return window && window > 0 ? { contextTokens, contextWindow: window } : { contextTokens };
  }

  private onAssistant(message: SDKAssistantMessage, rawEventId: string | undefined): void {
    // A synthetic message carrying an API error: the turn's result reports it.
    if (message.error !== undefined) return;
    this.followResumed(message, rawEventId);
    const parentItemRef = message.parent_tool_use_id;
    if (parentItemRef === null) this.noteResponse(message.message);
    const apiId = message.message.id;
    for (const block of message.message.content) {
      const index = this.blockCounts.get(apiId) ?? 0;
      this.blockCounts.set(apiId, index + 1);
      const ref = `${apiId}:${index}`;
      if (block.type === "text" || block.type === "thinking") {
        const kind = block.type === "text" ? "assistant_message" : "reasoning";
        const text = block.type === "text" ? block.text : block.thinking;
        this.startItem(ref, { kind, parentItemRef, fields: {}, toolName: null }, rawEventId);
        const item = this.open.get(ref);
        // The CLI sends a streamed block's assistant message before the block's stream ends; on
        // an interrupt that message holds only what had streamed. So the item completes with the
        // stream's end, or ends `interrupted` when the interrupt marker comes first.
        const streamed = parentItemRef === null && this.streamMessageId === apiId;
        if (item && streamed && !this.stopped.has(ref)) {
          item.fields = { text };
          this.awaitingStop.add(ref);
        } else {
          this.completeItem(ref, "completed", { text }, rawEventId);
        }
      } else if (block.type === "tool_use") {
        const input =
          typeof block.input === "object" && block.input !== null
            ? (block.input as Record<string, unknown>)
            : {};
        if (isTodoTool(block.name)) {
          this.plans.add(block.id);
          this.out.emit({
            type: "plan.updated",
            planRef: block.id,
            kind: "todo_list",
            steps: todoSteps(input),
            rawEventId,
          });
          continue;
        }
        if (isExitPlanTool(block.name)) {
          // B5: the plan Claude proposes in plan mode; the tool call itself is no item.
          this.plans.add(block.id);
          const plan = input.plan;
          if (typeof plan === "string") this.proposedPlan(block.id, plan, rawEventId);
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

  private onUser(message: SDKUserMessage, rawEventId: string | undefined): void {
    const content = message.message.content;
    if (message.parent_tool_use_id === null && INTERRUPT_MARKER.test(textOf(content))) {
      for (const ref of this.awaitingStop) {
        const item = this.open.get(ref);
        if (item) this.completeItem(ref, "interrupted", item.fields, rawEventId);
      }
      this.awaitingStop.clear();
      return;
    }
    this.followResumed(message, rawEventId);
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
        block.is_error === true,
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
