import {
  type ContentBlock,
  client,
  type InitializeResponse,
  type RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import { bindRawLog } from "@skein/adapter-kit";
import {
  type AdapterRuntimeMode,
  CapabilityUnsupportedError,
  type NativeHistoryTurn,
  type NativeTurnBoundary,
  type ProviderCapabilityFlags,
  type ProviderId,
  type ProviderSessionHandle,
  type RawEventSink,
  type RuntimeRequestAnswer,
  requireCapability,
  type ThreadSettings,
  type TurnHandle,
  type TurnInput,
} from "@skein/domain/provider";
import { type AcpConnection, connectAgent, stopAgent } from "./acp-connection.ts";
import { AcpTurn } from "./acp-turn.ts";
import { modeFor, runtimeModeKey, type SessionModes, sessionModesOf } from "./agent-modes.ts";
import { type AcpAgentSpec, agentProviderId } from "./agent-spec.ts";
import { capabilitiesOf, declaresClose, resumeMethodOf } from "./capabilities.ts";
import { modelsOf } from "./models.ts";
import { PermissionRequests, responseFor } from "./permissions.ts";
import { acpRuntimeGone, acpTurnFailure } from "./turn-failure.ts";
import { usageOfPromptResponse } from "./usage.ts";
import { answerFileRequest, readWorkspaceFile, writeWorkspaceFile } from "./workspace-fs.ts";

/** One ACP session of the agent: a Skein native thread. */
type LiveThread = {
  sessionId: string;
  cwd: string;
  modes: SessionModes;
  runtimeMode: AdapterRuntimeMode;
  permissions: PermissionRequests;
  turn: AcpTurn | null;
  /** The last prompt failed inside the agent; the session is reopened before the next one. */
  reopen: boolean;
};

/**
 * A running ACP agent process: one connection, any number of sessions (Skein threads) in it.
 * Nothing here is the only copy of a persisted value: a thread is its agent session id, which the
 * agent itself stores (E8).
 */
export class AcpProviderSession implements ProviderSessionHandle {
  readonly provider: ProviderId;
  readonly runtimeVersion: string | null;
  readonly capabilities: ProviderCapabilityFlags;
  private readonly threads = new Map<string, LiveThread>();
  private closed = false;

  private constructor(
    readonly providerSessionId: string,
    private readonly spec: AcpAgentSpec,
    private readonly agent: AcpConnection,
    capabilities: ProviderCapabilityFlags | undefined,
  ) {
    this.provider = agentProviderId(spec);
    this.runtimeVersion = agent.initialize.agentInfo?.version ?? null;
    this.capabilities =
      capabilities ??
      capabilitiesOf(agent.initialize, { planMode: spec.modes?.plan !== undefined });
    void agent.exited.then(() => this.onExit());
  }

  static async open(
    spec: AcpAgentSpec,
    input: { providerSessionId: string; cwd: string; model?: string | null; rawLog?: RawEventSink },
    capabilities?: ProviderCapabilityFlags,
  ): Promise<AcpProviderSession> {
    const log = bindRawLog(input.rawLog, agentProviderId(spec), input.providerSessionId);
    let self: AcpProviderSession | null = null;
    const app = client()
      .onNotification("session/update", ({ params }) => {
        self?.threads.get(params.sessionId)?.turn?.apply(params.update, undefined);
      })
      .onRequest("session/request_permission", ({ params }) => {
        if (!self) return { outcome: { outcome: "cancelled" } };
        return self.onPermission(params.sessionId, params);
      })
      .onRequest("fs/read_text_file", ({ params }) =>
        answerFileRequest(params.path, async () => ({
          content: await readWorkspaceFile(self?.cwdOf(params.sessionId) ?? "/nonexistent", params),
        })),
      )
      .onRequest("fs/write_text_file", ({ params }) =>
        answerFileRequest(params.path, async () => {
          await writeWorkspaceFile(self?.cwdOf(params.sessionId) ?? "/nonexistent", params);
          return {};
        }),
      );
    const extraArgs = input.model && spec.modelArgs ? spec.modelArgs(input.model) : [];
    const agent = await connectAgent(spec, app, { cwd: input.cwd, extraArgs, log });
    self = new AcpProviderSession(input.providerSessionId, spec, agent, capabilities);
    return self;
  }

  /** The raw `initialize` answer, for status and capability checks. */
  get initializeResponse(): InitializeResponse {
    return this.agent.initialize;
  }

  /** The process id of the agent, for tests that kill it. */
  get pid(): number | undefined {
    return this.agent.child.pid;
  }

  private cwdOf(sessionId: string): string | null {
    return this.threads.get(sessionId)?.cwd ?? null;
  }

  private onPermission(
    sessionId: string,
    params: Parameters<PermissionRequests["open"]>[0],
  ): RequestPermissionResponse | Promise<RequestPermissionResponse> {
    const thread = this.threads.get(sessionId);
    const turn = thread?.turn;
    if (!thread || !turn || turn.isEnded) return { outcome: { outcome: "cancelled" } };
    // Full access: the person already said yes to everything, so Skein answers for them.
    if (thread.runtimeMode === "full-access") return responseFor(params.options, "accept");
    turn.startTool(params.toolCall);
    return thread.permissions.open(
      params,
      (event) => turn.emitRequest(event),
      () => turn.markDeclined(params.toolCall.toolCallId),
    );
  }

  private thread(nativeThreadRef: string, operation: string): LiveThread {
    const thread = this.threads.get(nativeThreadRef);
    if (!thread) {
      throw new Error(
        `${this.spec.name}: session ${nativeThreadRef} is not open in this runtime (${operation}); resume it first`,
      );
    }
    return thread;
  }

  private async setMode(thread: LiveThread, modeId: string | null): Promise<void> {
    if (modeId === null || thread.modes.current === modeId) return;
    await this.agent.connection.agent.request("session/set_mode", {
      sessionId: thread.sessionId,
      modeId,
    });
    thread.modes.current = modeId;
  }

  private async adopt(
    sessionId: string,
    response: unknown,
    settings: ThreadSettings,
  ): Promise<{ nativeThreadRef: string }> {
    const thread: LiveThread = {
      sessionId,
      cwd: settings.cwd,
      modes: sessionModesOf(response),
      runtimeMode: settings.runtimeMode,
      permissions: new PermissionRequests(),
      turn: null,
      reopen: false,
    };
    this.threads.set(sessionId, thread);
    await this.setMode(
      thread,
      modeFor(runtimeModeKey(settings.runtimeMode), this.spec.modes, thread.modes),
    );
    await this.setModel(thread, response, settings.model);
    return { nativeThreadRef: sessionId };
  }

  private async setModel(thread: LiveThread, response: unknown, model: string | null | undefined) {
    if (!model) return;
    const models = modelsOf(response);
    if (models.length === 0 || models.some((m) => m.isDefault && m.id === model)) return;
    if (!models.some((m) => m.id === model)) {
      throw new Error(
        `${this.spec.name} offers no model ${model} (it offers ${models.map((m) => m.id).join(", ")})`,
      );
    }
    await this.agent.connection.agent.request("session/set_model", {
      sessionId: thread.sessionId,
      modelId: model,
    });
  }

  /** A bare `session/new` answer (its modes and models), for listing models. */
  async newSessionResponse(cwd: string): Promise<unknown> {
    return this.agent.connection.agent.request("session/new", { cwd, mcpServers: [] });
  }

  async startThread(settings: ThreadSettings): Promise<{ nativeThreadRef: string }> {
    const response = await this.agent.connection.agent.request("session/new", {
      cwd: settings.cwd,
      mcpServers: [],
    });
    return this.adopt(response.sessionId, response, settings);
  }

  async resumeThread(
    nativeThreadRef: string,
    settings: ThreadSettings,
  ): Promise<{ nativeThreadRef: string }> {
    requireCapability(this.provider, this.capabilities, "resume", "resumeThread");
    const known = this.threads.get(nativeThreadRef);
    if (known) {
      known.runtimeMode = settings.runtimeMode;
      return { nativeThreadRef };
    }
    const response = await this.attach(nativeThreadRef, settings.cwd);
    return this.adopt(nativeThreadRef, response, settings);
  }

  /** `session/load` (its history replays as updates, dropped with no turn open) or `session/resume`. */
  private attach(sessionId: string, cwd: string): Promise<unknown> {
    const params = { sessionId, cwd, mcpServers: [] };
    return resumeMethodOf(this.agent.initialize) === "session/load"
      ? this.agent.connection.agent.request("session/load", params)
      : this.agent.connection.agent.request<unknown>("session/resume", params);
  }

  /**
   * A prompt that failed inside the agent can leave its session answering the next prompt with
   * what was left of the failed one (claude-agent-acp 0.23.1 ends it at once, without asking the
   * model). Where the agent can close a session and take it up again, Skein does so first.
   */
  private async reopenIfFailed(thread: LiveThread): Promise<void> {
    if (!thread.reopen) return;
    thread.reopen = false;
    if (!this.capabilities.resume || !declaresClose(this.agent.initialize)) return;
    await this.agent.connection.agent.request("session/close", { sessionId: thread.sessionId });
    await this.attach(thread.sessionId, thread.cwd);
    thread.modes.current = null;
  }

  async forkThread(
    source: { nativeThreadRef: string; at: NativeTurnBoundary | null },
    settings: ThreadSettings,
  ): Promise<{ nativeThreadRef: string }> {
    requireCapability(this.provider, this.capabilities, "nativeFork", "forkThread");
    const at = source.at;
    const latest = at?.history.filter((t) => t.status !== "pending").at(-1);
    if (at && latest && latest.ordinal !== at.turn.ordinal) {
      throw new CapabilityUnsupportedError(
        this.provider,
        "forkAtTurn",
        "forkThread",
        "session/fork copies the session as it stands",
      );
    }
    this.thread(source.nativeThreadRef, "forkThread");
    const response = await this.agent.connection.agent.request<{ sessionId: string }>(
      "session/fork",
      { sessionId: source.nativeThreadRef, cwd: settings.cwd, mcpServers: [] },
    );
    return this.adopt(response.sessionId, response, settings);
  }

  async rollbackThread(): Promise<{ removedTurns: number }> {
    requireCapability(this.provider, this.capabilities, "rollback", "rollbackThread");
    throw new Error("unreachable");
  }

  async readHistory(): Promise<NativeHistoryTurn[]> {
    requireCapability(this.provider, this.capabilities, "readHistory", "readHistory");
    throw new Error("unreachable");
  }

  startTurn(
    nativeThreadRef: string,
    input: TurnInput,
    options: { settings: ThreadSettings },
  ): TurnHandle {
    const thread = this.threads.get(nativeThreadRef);
    const turn = new AcpTurn(nativeThreadRef, thread?.cwd ?? options.settings.cwd);
    const started = this.runTurn(thread, turn, input, options.settings);
    started.catch((error: unknown) => turn.fail(acpTurnFailure(error)));
    return { events: turn.events, started: started.then(() => ({ nativeTurnRef: null })) };
  }

  private async runTurn(
    thread: LiveThread | undefined,
    turn: AcpTurn,
    input: TurnInput,
    settings: ThreadSettings,
  ): Promise<void> {
    if (!thread) this.thread(turn.sessionId, "startTurn");
    if (!thread) return;
    if (input.compact)
      requireCapability(this.provider, this.capabilities, "readHistory", "compact");
    if (thread.turn && !thread.turn.isEnded) {
      throw new Error(`${this.spec.name}: a turn is already running on ${thread.sessionId}`);
    }
    // Before the turn is the session's: a load replays history as updates, which no turn takes.
    thread.turn = null;
    await this.reopenIfFailed(thread);
    thread.turn = turn;
    thread.runtimeMode = settings.runtimeMode;
    const plan = input.interactionMode === "plan";
    if (plan) requireCapability(this.provider, this.capabilities, "planMode", "plan mode");
    const wanted = plan ? "plan" : runtimeModeKey(settings.runtimeMode);
    await this.setMode(thread, modeFor(wanted, this.spec.modes, thread.modes));
    const prompt: ContentBlock[] = [];
    if (input.context) prompt.push({ type: "text", text: input.context.text });
    prompt.push({ type: "text", text: input.text });
    const prompting = this.agent.connection.agent.request("session/prompt", {
      sessionId: thread.sessionId,
      prompt,
    });
    prompting.then(
      (response) => {
        thread.permissions.cancelAll();
        const stop = response.stopReason;
        const usage = usageOfPromptResponse(response);
        if (stop === "cancelled" || turn.cancelRequested)
          turn.finish("interrupted", undefined, usage);
        else if (stop === "refusal")
          turn.fail(
            { kind: "invalid_request", message: `${this.spec.name} refused the prompt` },
            usage,
          );
        else turn.finish("completed", undefined, usage);
      },
      (error: unknown) => {
        thread.permissions.cancelAll();
        thread.reopen = true;
        if (turn.cancelRequested) turn.finish("interrupted");
        else turn.fail(acpTurnFailure(error));
      },
    );
  }

  async steerTurn(): Promise<void> {
    requireCapability(this.provider, this.capabilities, "steer", "steerTurn");
  }

  async interruptTurn(nativeThreadRef: string): Promise<void> {
    const thread = this.thread(nativeThreadRef, "interruptTurn");
    const turn = thread.turn;
    if (!turn || turn.isEnded) return;
    turn.cancelRequested = true;
    thread.permissions.cancelAll();
    await this.agent.connection.agent.notify("session/cancel", { sessionId: thread.sessionId });
  }

  async respondToRequest(requestRef: string, answer: RuntimeRequestAnswer): Promise<void> {
    for (const thread of this.threads.values()) {
      if (thread.permissions.has(requestRef)) {
        thread.permissions.answer(requestRef, answer);
        return;
      }
    }
    throw new Error(`request ${requestRef} is no longer open`);
  }

  isAlive(): boolean {
    return (
      !this.closed && this.agent.child.exitCode === null && this.agent.child.signalCode === null
    );
  }

  private onExit(): void {
    const tail = this.agent.stderrTail();
    for (const thread of this.threads.values()) {
      thread.permissions.cancelAll();
      const turn = thread.turn;
      if (!turn || turn.isEnded) continue;
      if (this.closed || turn.cancelRequested) turn.finish("interrupted");
      else turn.fail(acpRuntimeGone(this.spec.name, tail));
    }
    this.agent.connection.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const thread of this.threads.values()) {
      thread.permissions.cancelAll();
      if (thread.turn && !thread.turn.isEnded) thread.turn.finish("interrupted");
    }
    await stopAgent(this.agent);
    this.agent.connection.close();
  }
}
