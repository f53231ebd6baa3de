import { randomUUID, type UUID } from "node:crypto";
import {
  type CanUseTool,
  type EffortLevel,
  type Options,
  type PermissionMode,
  type Query,
  query,
  type SDKMessage,
  type SDKUserMessage,
} from "@anthropic-ai/claude-agent-sdk";
import { AsyncQueue } from "@skein/adapter-kit";
import { ClaudeTurn, type SdkEnvelope } from "./claude-turn.ts";
import { buildChildEnv, type ClaudeConfig } from "./config.ts";
import {
  type PermissionHandler,
  type ToolPermissionDecision,
  type ToolPermissionRequest,
  toPermissionResult,
} from "./permissions.ts";
import {
  createProcessTracker,
  type ProcessTracker,
  type TrackedProcess,
} from "./process-tracker.ts";
import type { RawEventSink } from "@skein/domain/provider";
import { createRawLogger, type RawLogger } from "./raw-log.ts";
import { type ClaudeSessionStart, startOptions } from "./session-start.ts";
import { commandLifecycle, consumedUserUuids, isResultMessage } from "./turn-outcome.ts";

export type ClaudeSessionOptions = {
  config?: ClaudeConfig;
  cwd: string;
  start: ClaudeSessionStart;
  /** Overrides `config.model`. */
  model?: string;
  /** Overrides `config.permissionMode`. */
  permissionMode?: PermissionMode;
  /** The raw provider log (E18); without one, frames are not logged. */
  rawLog: RawEventSink | undefined;
  /** The app's ProviderSession id, written on every raw frame. */
  providerSessionId: string;
  /** Answers `canUseTool`; without one, every tool that needs approval is denied. */
  permissions?: PermissionHandler;
  /** Shared across sessions to count spawns; default: a private tracker. */
  processes?: ProcessTracker;
  /** Stream partial assistant messages (`stream_event`). Default true. */
  includePartialMessages?: boolean;
  /** Further SDK options (MCP servers, agents, hooks...), applied last. */
  sdkOptions?: Partial<Options>;
};

export type ClaudeSessionState = "running" | "idle" | "closed" | "dead";

export type ClaudeSessionEnd = { reason: "closed" | "died"; error: string | null };

/** Thrown by `send` once the session's process has gone; reopen with `resume`. */
export class ClaudeSessionEndedError extends Error {
  constructor(
    readonly sessionId: string,
    readonly end: ClaudeSessionEnd,
  ) {
    super(`Claude session ${sessionId} has ${end.reason}${end.error ? `: ${end.error}` : ""}`);
    this.name = "ClaudeSessionEndedError";
  }
}

const denyAll: PermissionHandler = async () => ({
  behavior: "deny",
  message: "No approval handler is attached to this session.",
});

const CLOSE_GRACE_MS = 3_000;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One long-lived streaming-input `query()`: a single Claude Code process serving one native
 * conversation. User messages go into an input channel, so a second message reuses the process.
 */
export class ClaudeSession {
  /** The native session id (known up front: Skein assigns it for new sessions and forks). */
  readonly sessionId: string;
  readonly ended: Promise<ClaudeSessionEnd>;
  private readonly input = new AsyncQueue<SDKUserMessage>();
  private readonly query: Query;
  private readonly log: RawLogger;
  private readonly turns: ClaudeTurn[] = [];
  private readonly listeners = new Set<(envelope: SdkEnvelope) => void>();
  private endedWith: ClaudeSessionEnd | null = null;
  private closing = false;
  private markEnded!: (end: ClaudeSessionEnd) => void;
  private trackedProcess: TrackedProcess | null = null;
  private activityAt = Date.now();
  /** User messages the CLI has started answering (a result will settle them). */
  private readonly startedCommands = new Set<string>();
  /** The permission mode in force (set at start, changed per turn by `configureTurn`). */
  private permissionMode: PermissionMode;
  /** The effort level this session was last given (undefined: never set, the model's default). */
  private effortLevel: EffortLevel | null | undefined;

  constructor(options: ClaudeSessionOptions) {
    const config = options.config ?? {};
    const permissionMode = options.permissionMode ?? config.permissionMode ?? "default";
    this.permissionMode = permissionMode;
    const processes = options.processes ?? createProcessTracker();
    const permissions = options.permissions ?? denyAll;
    this.log = createRawLogger(options.rawLog, options.providerSessionId);
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });

    const start = startOptions(options.start);
    this.sessionId = start.sessionId;
    // Marks where this CLI process starts in the raw log: a replay needs to know which frames
    // share a process (the SDK reports cost per process) and which session its turns run in.
    this.log.outgoing("session_start", { sessionId: start.sessionId, ...start.sdk });

    const model = options.model ?? config.model;
    this.query = withoutShadowWarning(permissionMode, () =>
      query({
        prompt: this.input,
        options: {
          cwd: options.cwd,
          ...(model ? { model } : {}),
          permissionMode,
          ...(permissionMode === "bypassPermissions"
            ? { allowDangerouslySkipPermissions: true }
            : {}),
          includePartialMessages: options.includePartialMessages ?? true,
          // E5: the hooks Claude Code runs become `hook` nodes of the turn's graph.
          includeHookEvents: true,
          env: buildChildEnv(config, permissionMode),
          ...(config.executablePath ? { pathToClaudeCodeExecutable: config.executablePath } : {}),
          spawnClaudeCodeProcess: (spawnOptions) => {
            const { process, tracked } = processes.spawn(spawnOptions, {
              onStderr: (line) => {
                this.log.error("stderr", line);
                config.stderr?.(line);
              },
            });
            this.trackedProcess = tracked;
            return process;
          },
          // Even in bypass mode: it auto-approves every tool, but AskUserQuestion is offered (and
          // reaches this callback) only when Claude Code has someone to ask.
          canUseTool: this.canUseTool(permissions),
          ...start.sdk,
          ...options.sdkOptions,
        },
      }),
    );
    void this.pump();
  }

  private canUseTool(permissions: PermissionHandler): CanUseTool {
    return async (toolName, toolInput, ctx) => {
      const rawEventId = this.log.controlRequest("can_use_tool", ctx.requestId, {
        toolName,
        input: toolInput,
        ...ctx,
        signal: undefined,
      });
      const request: ToolPermissionRequest = {
        requestId: ctx.requestId,
        toolName,
        input: toolInput,
        toolUseId: ctx.toolUseID,
        agentId: ctx.agentID ?? null,
        title: ctx.title ?? null,
        description: ctx.description ?? null,
        blockedPath: ctx.blockedPath ?? null,
        decisionReason: ctx.decisionReason ?? null,
        suggestions: ctx.suggestions ?? [],
        signal: ctx.signal,
        ...(rawEventId === undefined ? {} : { rawEventId }),
      };
      let decision: ToolPermissionDecision;
      try {
        decision = await permissions(request);
      } catch (error) {
        decision = { behavior: "deny", message: `Approval failed: ${errorText(error)}` };
      }
      const result = toPermissionResult(request, decision);
      this.log.controlResponse("can_use_tool", ctx.requestId, result);
      return result;
    };
  }

  get state(): ClaudeSessionState {
    if (this.endedWith) return this.endedWith.reason === "closed" ? "closed" : "dead";
    return this.turns.length > 0 ? "running" : "idle";
  }

  /** The Claude Code process behind this session, once spawned. */
  get process(): TrackedProcess | null {
    return this.trackedProcess;
  }

  /** When a message was last sent or received (for idle reaping). */
  get lastActivityAt(): number {
    return this.activityAt;
  }

  /** The turn currently being answered, if any. */
  get activeTurn(): ClaudeTurn | null {
    return this.turns[0] ?? null;
  }

  /** Every message of the session (including ones outside any turn). Returns an unsubscribe. */
  onMessage(listener: (envelope: SdkEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Puts the next message under a permission mode (`plan` for plan mode, B5) and effort level,
   * through the live process's control requests; nothing is sent when both are already in force.
   */
  async configureTurn(next: {
    permissionMode: PermissionMode;
    effort: EffortLevel | null;
  }): Promise<void> {
    if (this.endedWith) throw new ClaudeSessionEndedError(this.sessionId, this.endedWith);
    if (next.permissionMode !== this.permissionMode) {
      this.log.outgoing("set_permission_mode", { mode: next.permissionMode });
      const answer = await this.query.setPermissionMode(next.permissionMode);
      this.permissionMode = answer?.mode ?? next.permissionMode;
    }
    if (next.effort !== (this.effortLevel ?? null)) {
      this.log.outgoing("apply_flag_settings", { effortLevel: next.effort });
      await this.query.applyFlagSettings({ effortLevel: next.effort });
      this.effortLevel = next.effort;
    }
  }

  /**
   * Sends a user message. While another turn runs, Claude Code queues it (and may fold it into
   * the running turn: both turns then settle with that turn's result).
   */
  send(content: SDKUserMessage["message"]["content"], options: { uuid?: UUID } = {}): ClaudeTurn {
    if (this.endedWith) throw new ClaudeSessionEndedError(this.sessionId, this.endedWith);
    // Input is closed while the session winds down: a message now would never be read.
    if (this.input.isEnded) {
      throw new ClaudeSessionEndedError(this.sessionId, { reason: "closed", error: null });
    }
    const uuid = options.uuid ?? randomUUID();
    const message: SDKUserMessage = {
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      uuid,
    };
    const turn = new ClaudeTurn(uuid);
    this.turns.push(turn);
    this.activityAt = Date.now();
    this.log.outgoing("user", message, uuid);
    this.input.push(message);
    return turn;
  }

  /**
   * Stops the running turn and every message queued behind it (steering): all settle
   * `interrupted`. The CLI keeps queued messages through an interrupt and answers them next, so
   * each is interrupted again as it starts. No-op when idle.
   */
  async interrupt(): Promise<void> {
    if (!this.activeTurn || this.endedWith) return;
    for (const turn of this.turns) turn.markInterruptRequested();
    await this.sendInterrupt();
  }

  private async sendInterrupt(): Promise<void> {
    this.log.outgoing("interrupt", {});
    await this.query.interrupt();
  }

  /** Ends the session: interrupts a running turn, closes input, and kills the process if needed. */
  async close(): Promise<void> {
    if (this.endedWith) return;
    this.closing = true;
    if (this.activeTurn) await this.interrupt().catch(() => undefined);
    this.input.end();
    const timer = setTimeout(() => this.query.close(), CLOSE_GRACE_MS);
    await this.ended;
    clearTimeout(timer);
  }

  private async pump(): Promise<void> {
    try {
      for await (const message of this.query) this.dispatch(message);
      this.end(this.closing ? "closed" : "died", this.closing ? null : "Claude Code exited");
    } catch (error) {
      this.log.error("query_error", { message: errorText(error) });
      this.end(this.closing ? "closed" : "died", errorText(error));
    }
  }

  private dispatch(message: SDKMessage): void {
    this.activityAt = Date.now();
    const envelope: SdkEnvelope = {
      message,
      rawEventId: this.log.incoming(message),
      receivedAt: Date.now(),
    };
    this.turns[0]?.deliver(envelope);
    for (const listener of this.listeners) listener(envelope);
    if (isResultMessage(message)) this.settleTurns(message);
    const lifecycle = commandLifecycle(message);
    if (lifecycle) this.onLifecycle(lifecycle.uuid, lifecycle.state);
  }

  private onLifecycle(uuid: string, state: string): void {
    const turn = this.turns.find((t) => t.userMessageUuid === uuid);
    if (!turn) return;
    if (state === "started") this.startedCommands.add(uuid);
    if (state === "started" && turn.isInterruptRequested) {
      // A message queued behind an interrupted turn: the person asked for everything to stop.
      this.sendInterrupt().catch((error: unknown) => {
        this.log.error("interrupt_failed", { message: errorText(error) });
      });
    } else if (state === "cancelled" && !this.startedCommands.has(uuid)) {
      // Dropped from the CLI's queue before it ran: no result will ever answer it.
      this.turns.splice(this.turns.indexOf(turn), 1);
      turn.abort("interrupted", null);
    }
  }

  private settleTurns(result: Extract<SDKMessage, { type: "result" }>): void {
    const consumed = new Set(consumedUserUuids(result));
    const settled = this.turns.filter((t) => consumed.has(t.userMessageUuid));
    // Without an echo (older CLIs), a result answers the oldest waiting turn. A result that
    // names only turns already settled (cancelled from the queue) answers none.
    const targets = consumed.size > 0 ? settled : this.turns.slice(0, 1);
    for (const turn of targets) {
      this.startedCommands.delete(turn.userMessageUuid);
      turn.complete(result);
      this.turns.splice(this.turns.indexOf(turn), 1);
    }
  }

  private end(reason: ClaudeSessionEnd["reason"], error: string | null): void {
    if (this.endedWith) return;
    this.endedWith = { reason, error };
    this.input.end();
    for (const turn of this.turns.splice(0)) {
      turn.abort(reason === "closed" ? "interrupted" : "failed", error);
    }
    this.markEnded(this.endedWith);
  }
}

/**
 * The SDK warns at start that bypass mode shadows canUseTool. That holds for permissions, not
 * for AskUserQuestion, the one call that still reaches the callback, so the warning would only
 * mislead whoever reads the server's output. It is emitted while the query is built.
 */
function withoutShadowWarning<T>(permissionMode: PermissionMode, build: () => T): T {
  if (permissionMode !== "bypassPermissions") return build();
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const options = rest[0];
    const code =
      typeof options === "object" && options !== null
        ? (options as { code?: string }).code
        : undefined;
    if (code === "CLAUDE_SDK_CAN_USE_TOOL_SHADOWED") return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return build();
  } finally {
    process.emitWarning = emit;
  }
}
