import { bindRawLog } from "@skein/adapter-kit";
import {
  CapabilityUnsupportedError,
  type NativeHistoryTurn,
  type NativeTurnBoundary,
  type ProviderCapabilityFlags,
  type ProviderId,
  type RawEventSink,
  requireCapability,
  type RuntimeRequestAnswer,
  type ThreadSettings,
  type TurnHandle,
  type TurnInput,
  unexplainedFailure,
} from "@skein/domain/provider";
import type { ProviderSessionHandle } from "@skein/domain/provider";
import { AgentConnection, type AgentHandlers } from "./agent-connection.ts";
import { approvalAnswer, approvalOpened } from "./permissions.ts";
import { ScriptedTurn } from "./scripted-turn.ts";
import { scriptedRuntimeGone } from "./turn-failure.ts";

type OpenInput = {
  providerSessionId: string;
  cwd: string;
  rawLog?: RawEventSink;
  env: Record<string, string | undefined>;
};

/**
 * One scripted agent process serving any number of threads (A6): native thread refs are the
 * agent's thread ids, native turn refs its turn ids (strong), one running turn per thread.
 */
export class ScriptedSession implements ProviderSessionHandle {
  readonly runtimeVersion: string;
  /** The running turn of each thread. */
  private readonly turns = new Map<string, ScriptedTurn>();
  /** Open approval requests: Skein's ref → the agent's request id and its thread. */
  private readonly requests = new Map<string, { agentId: string | number; threadRef: string }>();
  private closing = false;

  private constructor(
    readonly providerSessionId: string,
    readonly provider: ProviderId,
    readonly capabilities: ProviderCapabilityFlags,
    private readonly cwd: string,
    private readonly connection: AgentConnection,
    version: string,
  ) {
    this.runtimeVersion = version;
  }

  static async open(
    provider: ProviderId,
    capabilities: ProviderCapabilityFlags,
    input: OpenInput,
  ): Promise<ScriptedSession> {
    let session: ScriptedSession | undefined;
    // The agent speaks only once `initialize` is answered, by when `session` is set.
    const handlers: AgentHandlers = {
      notification: (method, params, rawEventId) =>
        session?.onNotification(method, params, rawEventId),
      request: (id, method, params) => session?.onRequest(id, method, params),
      exited: (words) => session?.onExit(words),
    };
    const log = bindRawLog(input.rawLog, provider, input.providerSessionId);
    const { connection, version } = await AgentConnection.open({
      cwd: input.cwd,
      env: input.env,
      log,
      handlers,
    });
    session = new ScriptedSession(
      input.providerSessionId,
      provider,
      capabilities,
      input.cwd,
      connection,
      version,
    );
    return session;
  }

  private require(capability: keyof ProviderCapabilityFlags, operation: string): void {
    requireCapability(this.provider, this.capabilities, capability, operation);
  }

  async startThread(settings: ThreadSettings): Promise<{ nativeThreadRef: string }> {
    const { threadId } = (await this.connection.call("thread/start", { cwd: settings.cwd })) as {
      threadId: string;
    };
    return { nativeThreadRef: threadId };
  }

  async resumeThread(nativeThreadRef: string): Promise<{ nativeThreadRef: string }> {
    this.require("resume", "resumeThread");
    await this.connection.call("thread/resume", { threadId: nativeThreadRef });
    return { nativeThreadRef };
  }

  async forkThread(source: {
    nativeThreadRef: string;
    at: NativeTurnBoundary | null;
  }): Promise<{ nativeThreadRef: string }> {
    this.require("nativeFork", "forkThread");
    if (source.at) this.require("forkAtTurn", "forkThread");
    const throughTurnId = source.at ? this.turnRefOf(source.at, "forkThread") : undefined;
    const { threadId } = (await this.connection.call("thread/fork", {
      threadId: source.nativeThreadRef,
      throughTurnId,
    })) as { threadId: string };
    return { nativeThreadRef: threadId };
  }

  async rollbackThread(
    nativeThreadRef: string,
    keep: NativeTurnBoundary | null,
  ): Promise<{ removedTurns: number }> {
    this.require("rollback", "rollbackThread");
    const throughTurnId = keep ? this.turnRefOf(keep, "rollbackThread") : null;
    return (await this.connection.call("thread/rollback", {
      threadId: nativeThreadRef,
      throughTurnId,
    })) as { removedTurns: number };
  }

  /** The agent names turns by id only: a boundary without one cannot be cut at. */
  private turnRefOf(boundary: NativeTurnBoundary, operation: string): string {
    const ref = boundary.turn.nativeTurnRef;
    if (ref === null) {
      throw new CapabilityUnsupportedError(this.provider, "forkAtTurn", operation, "no turn id");
    }
    return ref;
  }

  async readHistory(): Promise<NativeHistoryTurn[]> {
    this.require("readHistory", "readHistory");
    return [];
  }

  startTurn(
    nativeThreadRef: string,
    input: TurnInput,
    options: { settings: ThreadSettings },
  ): TurnHandle {
    const turn = new ScriptedTurn();
    try {
      if (input.context) this.require("historyInjection", "startTurn with a handoff");
      if (options.settings.runtimeMode === "approval-required") {
        this.require("approvals", "startTurn in approval-required mode");
      }
      if (input.interactionMode === "plan") this.require("planMode", "startTurn in plan mode");
      if (input.compact)
        throw new CapabilityUnsupportedError(this.provider, "compact", "startTurn");
      if (this.turns.has(nativeThreadRef)) throw new Error("a turn is already running");
    } catch (error) {
      turn.refuse(error, unexplainedFailure(String(error)));
      return turn;
    }
    this.turns.set(nativeThreadRef, turn);
    this.connection
      .call("turn/start", {
        threadId: nativeThreadRef,
        text: input.text,
        context: input.context?.text ?? null,
        approvals: options.settings.runtimeMode === "approval-required",
      })
      .then(
        (result) => turn.begin((result as { turnId: string }).turnId),
        (error: unknown) => {
          this.turns.delete(nativeThreadRef);
          const words = error instanceof Error ? error.message : String(error);
          const alive = this.connection.isAlive();
          turn.refuse(error, alive ? unexplainedFailure(words) : scriptedRuntimeGone(words));
        },
      );
    return turn;
  }

  async steerTurn(): Promise<void> {
    this.require("steer", "steerTurn");
  }

  async interruptTurn(nativeThreadRef: string): Promise<void> {
    this.require("interrupt", "interruptTurn");
    await this.connection.call("turn/interrupt", { threadId: nativeThreadRef });
  }

  async respondToRequest(requestRef: string, answer: RuntimeRequestAnswer): Promise<void> {
    const open = this.requests.get(requestRef);
    if (!open) throw new Error(`request ${requestRef} is not open`);
    this.requests.delete(requestRef);
    this.connection.answer(open.agentId, approvalAnswer(answer));
    this.turns.get(open.threadRef)?.emit({
      type: "request.closed",
      requestRef,
      reason: answer.decision,
    });
  }

  private onNotification(
    method: string,
    params: Record<string, unknown>,
    rawEventId?: string,
  ): void {
    const threadRef = String(params.threadId);
    const turn = this.turns.get(threadRef);
    if (!turn) return;
    if (method === "request/withdrawn") {
      const requestRef = String(params.id);
      if (this.requests.delete(requestRef)) {
        turn.emit({ type: "request.closed", requestRef, reason: "the turn ended" });
      }
      return;
    }
    turn.receive(method, params, rawEventId);
    if (turn.isEnded) this.turns.delete(threadRef);
  }

  private onRequest(id: string | number, method: string, params: Record<string, unknown>): void {
    const threadRef = String(params.threadId);
    const turn = this.turns.get(threadRef);
    if (method !== "approval/request" || !turn) {
      this.connection.answer(id, null);
      return;
    }
    const requestRef = String(id);
    this.requests.set(requestRef, { agentId: id, threadRef });
    turn.emit(approvalOpened(requestRef, params, this.cwd));
  }

  /** The process is gone: turns end interrupted when Skein closed it, failed when it died. */
  private onExit(words: string): void {
    for (const turn of this.turns.values()) {
      if (this.closing) turn.end("interrupted");
      else turn.end("failed", scriptedRuntimeGone(words));
    }
    this.turns.clear();
    this.requests.clear();
  }

  isAlive(): boolean {
    return this.connection.isAlive();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.connection.close();
  }
}
