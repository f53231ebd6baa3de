import { randomUUID, type UUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { EffortLevel, PermissionMode } from "@anthropic-ai/claude-agent-sdk";
import {
  type AppToolHandler,
  CapabilityUnsupportedError,
  type NativeHistoryTurn,
  type NativeTurnBoundary,
  type ProviderSessionHandle,
  type RawEventSink,
  type RuntimeRequestAnswer,
  requireCapability,
  type ThreadSettings,
  type TurnHandle,
  type TurnInput,
} from "@skein/domain/provider";
import {
  APP_TOOL_SERVER,
  type AppToolInvocation,
  appToolNameOf,
  appToolServerConfig,
} from "./app-tool-server.ts";
import { CLAUDE_CAPABILITIES } from "./capabilities.ts";
import { ClaudeRuntime, type ClaudeSessionSettings } from "./claude-runtime.ts";
import { type ClaudeSession, ClaudeSessionEndedError } from "./claude-session.ts";
import type { ClaudeConfig } from "./config.ts";
import {
  decisionFor,
  PermissionBroker,
  type ToolPermissionDecision,
  type ToolPermissionRequest,
} from "./permissions.ts";
import type { TrackedProcess } from "./process-tracker.ts";
import { SteeredTurn } from "./steered-turn.ts";
import { isExitPlanTool } from "./tool-kinds.ts";
import { failedPromptCut, readTranscriptHistory } from "./transcript-history.ts";
import { transcriptExists, transcriptPath } from "./transcripts.ts";
import { TurnCuts } from "./turn-cuts.ts";
import { TurnEventMapper } from "./turn-event-mapper.ts";
import { claudeRuntimeGone, claudeTurnFailure } from "./turn-failure.ts";
import { userContent } from "./user-content.ts";

/**
 * How a native thread must be opened by its next turn. Claude writes a fork or a rewind only when
 * a message is sent, so both wait here until then.
 */
type NextOpen =
  | { kind: "new" }
  | { kind: "resume" }
  | { kind: "fork"; fromSessionId: string; at: string | null }
  | { kind: "rewind"; at: string };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What Claude is told when it asks to leave plan mode: the plan waits for the person. */
export const PLAN_RECORDED =
  "The plan was recorded for the user to review. Do not start implementing it: stop here and " +
  "wait for the user's next message.";

/** The permission mode of the runtime mode (E1); plan mode is set per turn on top of it. */
function basePermissionMode(settings: ThreadSettings): PermissionMode {
  return settings.runtimeMode === "full-access" ? "bypassPermissions" : "default";
}

const CLAUDE_EFFORTS: readonly EffortLevel[] = ["low", "medium", "high", "xhigh", "max"];

/** Claude's effort levels; another provider's level (e.g. Codex `minimal`) is refused in words. */
function claudeEffort(effort: string | null): EffortLevel | null {
  if (effort === null) return null;
  const level = CLAUDE_EFFORTS.find((known) => known === effort);
  if (!level) {
    throw new Error(
      `Claude has no reasoning effort "${effort}" (it takes ${CLAUDE_EFFORTS.join(", ")})`,
    );
  }
  return level;
}

/** The Skein `ProviderSessionHandle` over a ClaudeRuntime: native thread ref = Claude session id. */
export class ClaudeProviderSession implements ProviderSessionHandle {
  readonly provider = "claude" as const;
  readonly capabilities = CLAUDE_CAPABILITIES;
  private readonly runtime: ClaudeRuntime;
  private readonly broker = new PermissionBroker();
  private readonly next = new Map<string, NextOpen>();
  private readonly mappers = new Map<string, TurnEventMapper>();
  /** Per CLI process: the `total_cost_usd` already reported as some turn's cost. */
  private readonly spentUsd = new WeakMap<ClaudeSession, number>();
  private readonly requestThreads = new Map<string, string>();
  /** The running turn's app-tool handler per native thread (the MCP server outlives turns). */
  private readonly appToolHandlers = new Map<string, AppToolHandler>();
  /** The running turn per native thread, which steers join (R1). */
  private readonly running = new Map<string, SteeredTurn>();
  /**
   * Threads whose last turn the model refused before answering anything: the live process holds
   * that prompt, so the next turn reopens the conversation without it (see `failedPromptCut`).
   */
  private readonly refused = new Set<string>();
  private readonly cuts: TurnCuts;
  private version: string | null = null;
  private closed = false;

  constructor(
    readonly providerSessionId: string,
    private readonly config: ClaudeConfig,
    rawLog: RawEventSink | undefined,
  ) {
    this.runtime = new ClaudeRuntime({ config, rawLog, providerSessionId });
    this.cuts = new TurnCuts(config);
    this.broker.onChange(({ request, state }) => {
      if (state !== "withdrawn") return;
      const thread = this.requestThreads.get(request.requestId);
      if (thread) this.mappers.get(thread)?.requestClosed(request, "withdrawn");
    });
  }

  /** Claude Code's version, once a turn has reported it. */
  get runtimeVersion(): string | null {
    return this.version;
  }

  /** Processes spawned so far (one per live native thread, plus restarts). */
  get spawnCount(): number {
    return this.runtime.spawnCount;
  }

  /** The Claude Code process serving a native thread right now, if any (diagnostics). */
  liveProcess(nativeThreadRef: string): TrackedProcess | null {
    return this.runtime.liveSession(nativeThreadRef)?.process ?? null;
  }

  private settingsFor(ref: string, settings: ThreadSettings): ClaudeSessionSettings {
    const tools = settings.tools ?? [];
    return {
      cwd: settings.cwd,
      ...(settings.model ? { model: settings.model } : {}),
      permissionMode: basePermissionMode(settings),
      permissions: (request) => this.onPermission(ref, request),
      sdkOptions: {
        // Child agents' text and thinking become child items in the execution graph (T9).
        forwardSubagentText: true,
        // The process keeps the tool set it was opened with; the orchestrator offers the same
        // set on every turn.
        ...(tools.length > 0
          ? {
              mcpServers: {
                [APP_TOOL_SERVER]: appToolServerConfig(tools, (call) => this.onAppTool(ref, call)),
              },
            }
          : {}),
      },
    };
  }

  private async onAppTool(ref: string, call: AppToolInvocation) {
    const handler = this.appToolHandlers.get(ref);
    if (!handler) return { output: `No handler for ${call.toolName} right now`, isError: true };
    return handler({
      toolName: call.toolName,
      input: call.input,
      callRef: call.toolUseId ?? "",
      nativeThreadRef: ref,
    });
  }

  private onPermission(
    ref: string,
    request: ToolPermissionRequest,
  ): Promise<ToolPermissionDecision> {
    // App-owned tools are Skein's own (the delegate tool asks for approvals in its child
    // thread). Allowed here rather than through `allowedTools`, which would shadow canUseTool.
    if (appToolNameOf(request.toolName) !== null) return Promise.resolve({ behavior: "allow" });
    if (isExitPlanTool(request.toolName)) return Promise.resolve(this.onExitPlan(ref, request));
    this.requestThreads.set(request.requestId, ref);
    const decision = this.broker.handler(request);
    this.mappers.get(ref)?.requestOpened(request);
    return decision;
  }

  /**
   * B5: Claude asks to leave plan mode with its plan. Skein records the plan for the person to
   * accept or not (`sourcePlanRef` later), so the request is not put to anyone: it is declined
   * with words that tell Claude to stop here, and the session stays in plan mode.
   */
  private onExitPlan(ref: string, request: ToolPermissionRequest): ToolPermissionDecision {
    const plan = request.input.plan;
    if (typeof plan === "string") this.mappers.get(ref)?.proposedPlan(request.toolUseId, plan);
    return { behavior: "deny", message: PLAN_RECORDED };
  }

  async startThread(_settings: ThreadSettings) {
    const nativeThreadRef = randomUUID();
    this.next.set(nativeThreadRef, { kind: "new" });
    return { nativeThreadRef };
  }

  async resumeThread(nativeThreadRef: string, _settings: ThreadSettings) {
    if (!this.next.has(nativeThreadRef)) {
      if (!transcriptExists(this.config, nativeThreadRef)) {
        throw new Error(`No Claude conversation found with session ID ${nativeThreadRef}`);
      }
      this.next.set(nativeThreadRef, { kind: "resume" });
    }
    return { nativeThreadRef };
  }

  /**
   * Issue 35: another instance is about to continue this conversation. The CLI process holding
   * it would keep its own, older history, so it exits (its transcript is then complete) and the
   * next turn here resumes from the transcript the other instance extended.
   */
  async releaseThread(nativeThreadRef: string): Promise<boolean> {
    const live = this.runtime.liveSession(nativeThreadRef);
    if (this.running.has(nativeThreadRef) || live?.state === "running") return false;
    await live?.close();
    if (this.next.get(nativeThreadRef)?.kind === "resume") this.next.delete(nativeThreadRef);
    return true;
  }

  async forkThread(
    source: { nativeThreadRef: string; at: NativeTurnBoundary | null },
    _settings: ThreadSettings,
  ) {
    requireCapability("claude", this.capabilities, "nativeFork", "forkThread");
    const pending = this.next.get(source.nativeThreadRef);
    const nativeThreadRef = randomUUID();
    // A source that never ran has no transcript to fork: the fork starts empty too.
    if (pending?.kind === "new") {
      this.next.set(nativeThreadRef, { kind: "new" });
      return { nativeThreadRef };
    }
    const at = await this.cuts.cutAt(source.nativeThreadRef, source.at, "forkAtTurn", "forkThread");
    // Forking the latest state leaves out prompts the model refused, as resuming does.
    const refused = at === null ? await this.refusedCut(source.nativeThreadRef) : null;
    if (refused && refused.at === null) {
      this.next.set(nativeThreadRef, { kind: "new" });
      return { nativeThreadRef };
    }
    this.next.set(nativeThreadRef, {
      kind: "fork",
      fromSessionId: source.nativeThreadRef,
      at: refused?.at ?? at,
    });
    return { nativeThreadRef };
  }

  async rollbackThread(nativeThreadRef: string, keep: NativeTurnBoundary | null) {
    requireCapability("claude", this.capabilities, "rollback", "rollbackThread");
    if (!keep) {
      throw new CapabilityUnsupportedError(
        "claude",
        "rollback",
        "rollbackThread",
        "Claude cannot drop every turn of a session; start a new thread instead",
      );
    }
    const at = await this.cuts.cutAt(nativeThreadRef, keep, "rollback", "rollbackThread");
    if (!at) return { removedTurns: 0 };
    const live = this.runtime.liveSession(nativeThreadRef);
    if (live?.state === "running") throw new Error("Cannot roll back while a turn is running");
    await live?.close();
    this.next.set(nativeThreadRef, { kind: "rewind", at });
    return { removedTurns: keep.history.filter((t) => t.ordinal > keep.turn.ordinal).length };
  }

  /**
   * Reads the transcript file under the configured config dir directly: the SDK's session
   * helpers resolve `CLAUDE_CONFIG_DIR` from this process's env, not from the adapter's config.
   */
  async readHistory(nativeThreadRef: string): Promise<NativeHistoryTurn[]> {
    requireCapability("claude", this.capabilities, "readHistory", "readHistory");
    return readTranscriptHistory(transcriptPath(this.config, nativeThreadRef));
  }

  private async open(ref: string, settings: ThreadSettings): Promise<ClaudeSession> {
    const next = this.next.get(ref) ?? { kind: "resume" };
    const session = this.settingsFor(ref, settings);
    this.next.set(ref, { kind: "resume" });
    switch (next.kind) {
      case "new":
        return this.runtime.startSession(session, ref);
      case "fork":
        return this.runtime.forkSession(next.fromSessionId, next.at, session, ref);
      case "rewind":
        return this.runtime.rewindSession(ref, next.at, session);
      case "resume":
        return this.resume(ref, session);
    }
  }

  /**
   * The live process, or a new one resuming the conversation. A conversation that ends on prompts
   * the model refused resumes from before them: Claude Code would merge them into the next
   * message, and a prompt the model always refuses would then fail every message after it.
   */
  private async resume(ref: string, settings: ClaudeSessionSettings): Promise<ClaudeSession> {
    const live = this.runtime.liveSession(ref);
    const usable = live?.state === "idle" || live?.state === "running";
    if (usable && !this.refused.has(ref)) return this.runtime.session(ref, settings);
    // A first turn that never reached Claude Code (its binary failed to spawn, say) left no
    // conversation behind: resuming it would fail every later message, so it starts afresh.
    if (!usable && !transcriptExists(this.config, ref)) {
      return this.runtime.startSession(settings, ref);
    }
    // The transcript is complete once the process that wrote it has exited.
    if (usable) await live?.close();
    this.refused.delete(ref);
    const cut = await this.refusedCut(ref);
    if (!cut) return this.runtime.session(ref, settings);
    if (cut.at) return this.runtime.rewindSession(ref, cut.at, settings);
    return this.runtime.restartSession(ref, settings);
  }

  /** Where the conversation must resume to leave out prompts the model refused, if it ends so. */
  private async refusedCut(ref: string): Promise<{ at: string | null } | null> {
    const path = transcriptPath(this.config, ref);
    return path ? failedPromptCut(await readFile(path, "utf8")) : null;
  }

  startTurn(
    nativeThreadRef: string,
    input: TurnInput,
    options: { settings: ThreadSettings; onAppToolCall?: AppToolHandler },
  ): TurnHandle {
    // The user message's uuid is the turn's native ref (E10), known before Claude answers.
    const turnRef = randomUUID();
    const mapper = new TurnEventMapper(options.settings.cwd, turnRef);
    this.mappers.set(nativeThreadRef, mapper);
    if (options.onAppToolCall) this.appToolHandlers.set(nativeThreadRef, options.onAppToolCall);
    else this.appToolHandlers.delete(nativeThreadRef);
    void this.runTurn(nativeThreadRef, turnRef, input, options.settings, mapper);
    return { events: mapper.events, started: mapper.started };
  }

  private async runTurn(
    ref: string,
    turnRef: UUID,
    input: TurnInput,
    settings: ThreadSettings,
    mapper: TurnEventMapper,
  ): Promise<void> {
    try {
      if (this.closed) throw new Error("Claude provider session is closed");
      // Checked before a process is opened for the turn.
      const effort = claudeEffort(input.effort ?? null);
      const session = await this.open(ref, settings);
      await session.configureTurn({
        permissionMode: input.interactionMode === "plan" ? "plan" : basePermissionMode(settings),
        effort,
      });
      const steered = new SteeredTurn((envelope) => {
        const message = envelope.message;
        if (message.type === "system" && message.subtype === "init") {
          this.version = message.claude_code_version;
        }
        mapper.handle(
          envelope,
          message.type === "result" ? this.resultCost(session, message.total_cost_usd) : undefined,
        );
      });
      steered.add(session.send(await userContent(input), { uuid: turnRef }));
      this.running.set(ref, steered);
      const outcome = await steered.settle();
      // A turn without a result (its process died) may not have reached the transcript in full;
      // cuts for it are looked up there instead.
      if (outcome.result) {
        this.cuts.record(turnRef, outcome.lastEntryUuid ?? outcome.lastAssistantUuid);
      }
      if (steered.endedRefused) this.refused.add(ref);
      mapper.finish(outcome);
    } catch (error) {
      const words = errorText(error);
      mapper.finish({
        status: "failed",
        error: words,
        failure:
          error instanceof ClaudeSessionEndedError
            ? claudeRuntimeGone(words)
            : claudeTurnFailure(words, undefined),
        result: null,
        lastAssistantUuid: null,
        lastEntryUuid: null,
      });
    } finally {
      if (this.mappers.get(ref) === mapper) {
        this.mappers.delete(ref);
        this.appToolHandlers.delete(ref);
        this.running.delete(ref);
      }
    }
  }

  /** One result's cost: the SDK reports what its process has spent so far (it restarts at 0). */
  private resultCost(session: ClaudeSession, totalCostUsd: number): number {
    const before = this.spentUsd.get(session) ?? 0;
    this.spentUsd.set(session, Math.max(before, totalCostUsd));
    return Math.max(0, totalCostUsd - before);
  }

  async steerTurn(nativeThreadRef: string, _nativeTurnRef: string | null, text: string) {
    const steered = this.running.get(nativeThreadRef);
    const live = this.runtime.liveSession(nativeThreadRef);
    if (!steered?.isOpen || !live) throw new Error(`No running turn on ${nativeThreadRef}`);
    // Sent into the live process: Claude Code folds it into the running turn between tool rounds,
    // or answers it right after the current answer; the running turn ends on its reply either way.
    steered.add(live.send(text));
  }

  async interruptTurn(nativeThreadRef: string, _nativeTurnRef: string | null) {
    await this.runtime.liveSession(nativeThreadRef)?.interrupt();
  }

  async respondToRequest(requestRef: string, answer: RuntimeRequestAnswer) {
    const request = this.broker.pending().find((r) => r.requestId === requestRef);
    if (!request) throw new Error(`Request ${requestRef} is no longer answerable`);
    const decision = decisionFor(request, answer);
    if (decision.behavior === "deny") {
      const thread = this.requestThreads.get(requestRef);
      if (thread) this.mappers.get(thread)?.requestDeclined(request.toolUseId);
    }
    this.broker.answer(requestRef, decision);
  }

  isAlive(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.runtime.close();
  }
}
