import {
  type AppToolHandler,
  CapabilityUnsupportedError,
  NativeThreadHeldError,
  type NativeTurnBoundary,
  type ProviderCapabilityFlags,
  type ProviderSessionHandle,
  type RuntimeRequestAnswer,
  type ThreadSettings,
  type TurnHandle,
  type TurnInput,
} from "@skein/domain/provider";
import { failureOfWords } from "@skein/adapter-kit";
import { notificationThreadId } from "../mapping/notification-routing.ts";
import { RuntimeNotices } from "./runtime-notices.ts";
import { answerRequest } from "../mapping/request-mapping.ts";
import { dynamicTools, runtimePolicy, threadParams } from "../mapping/runtime-policy.ts";
import { turnModeParams } from "../mapping/turn-mode.ts";
import type { CollaborationMode, Thread, ThreadHistoryMode, UserInput } from "../protocol/index.ts";
import type { CodexAppServerClient } from "../rpc/app-server-client.ts";
import type { ProcessExit } from "../rpc/errors.ts";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";
import { CodexTurn } from "./codex-turn.ts";
import { keptTurnCount, listNativeTurns, toHistoryTurn } from "./native-history.ts";
import { ServerRequestRouter } from "./server-request-router.ts";
import { SubAgentLineage } from "./sub-agent-lineage.ts";

export type CodexSessionOptions = {
  providerSessionId: string;
  client: CodexAppServerClient;
  capabilities: ProviderCapabilityFlags;
  defaultModel: string | null;
  /** Window for merging streamed deltas (ms); 0 passes every delta through. */
  coalesceMs: number;
};

/** One `codex app-server` process serving Skein's provider-session contract. */
export class CodexSession implements ProviderSessionHandle {
  readonly provider = "codex" as const;
  readonly providerSessionId: string;
  readonly capabilities: ProviderCapabilityFlags;
  readonly runtimeVersion: string | null;
  private readonly client: CodexAppServerClient;
  private readonly running = new Map<string, CodexTurn>();
  private readonly historyModes = new Map<string, ThreadHistoryMode>();
  /** The model each loaded thread runs on (Codex says on start/resume/fork), for plan mode. */
  private readonly threadModels = new Map<string, string>();
  /** The collaboration mode each loaded thread holds, where known (see turn-mode.ts). */
  private readonly heldModes = new Map<string, CollaborationMode | null>();
  private readonly requests: ServerRequestRouter;
  private readonly lineage = new SubAgentLineage();
  /** E5: notices waiting for the next turn (see runtime-notices.ts). */
  private readonly notices = new RuntimeNotices();

  constructor(private readonly options: CodexSessionOptions) {
    this.client = options.client;
    this.providerSessionId = options.providerSessionId;
    this.capabilities = options.capabilities;
    this.runtimeVersion =
      /\/(\d+\.\d+\.\d+\S*)/.exec(this.client.initialized.userAgent)?.[1] ?? null;
    this.requests = new ServerRequestRouter(
      (threadId) => this.turnOf(threadId),
      (threadId) => this.readParent(threadId),
    );
    this.client.setServerRequestHandler((request) => this.onServerRequest(request));
    this.client.onNotification((n) => {
      this.lineage.observe(n);
      if (n.method === "serverRequest/resolved") this.requests.resolved(n.params.requestId);
      const threadId = notificationThreadId(n);
      const notice = RuntimeNotices.of(n);
      if (notice && threadId === null) {
        // A server-wide notice (a deprecated setting) follows the thread start that read it:
        // the turn started last, if one runs, else the next one.
        const latest = [...this.running.values()].at(-1);
        if (latest) latest.notice(notice);
        else this.notices.hold(notice);
        return;
      }
      if (notice && threadId !== null && !this.running.has(threadId)) {
        if (!this.ancestorTurn(threadId)) {
          this.notices.hold(notice);
          return;
        }
      }
      if (threadId === null) return;
      const own = this.running.get(threadId);
      if (own) own.notify(n);
      else this.ancestorTurn(threadId)?.notifyChild(threadId, n);
    });
    this.client.onExit((exit) => this.onExit(exit));
  }

  async startThread(settings: ThreadSettings) {
    const tools = dynamicTools(settings);
    const started = await this.client.request("thread/start", {
      ...threadParams(settings, this.options.defaultModel),
      ...(tools ? { dynamicTools: tools } : {}),
    });
    const nativeThreadRef = this.rememberLoaded(started);
    this.heldModes.set(nativeThreadRef, null);
    return { nativeThreadRef };
  }

  async resumeThread(nativeThreadRef: string, settings: ThreadSettings) {
    try {
      const resumed = await this.client.request("thread/resume", {
        threadId: nativeThreadRef,
        ...threadParams(settings, this.options.defaultModel),
        excludeTurns: true,
      });
      const ref = this.rememberLoaded(resumed);
      this.heldModes.set(ref, resumed.collaborationMode);
      return { nativeThreadRef: ref };
    } catch (error) {
      // Codex refuses a thread another app-server has loaded (one writer per thread).
      const text = error instanceof Error ? error.message : String(error);
      if (/active writer/i.test(text)) throw new NativeThreadHeldError(nativeThreadRef, text);
      throw error;
    }
  }

  async forkThread(
    source: { nativeThreadRef: string; at: NativeTurnBoundary | null },
    settings: ThreadSettings,
  ) {
    const base = {
      threadId: source.nativeThreadRef,
      ...threadParams(settings, this.options.defaultModel),
      excludeTurns: true,
    };
    const at = source.at;
    if (!at) {
      const forked = await this.client.request("thread/fork", base);
      return { nativeThreadRef: this.rememberFork(source.nativeThreadRef, forked) };
    }
    if (at.turn.status === "running" || at.turn.status === "pending") {
      throw new Error(`cannot fork at turn ${at.turn.ordinal}: it has not finished (T2)`);
    }
    // C1: a native ref is an exact, inclusive boundary. C2: without one, find it by counting.
    let lastTurnId = at.turn.nativeTurnRef;
    if (lastTurnId === null) {
      const native = await listNativeTurns(this.client, source.nativeThreadRef);
      const kept = keptTurnCount(native, at, "forkThread");
      lastTurnId = native[kept - 1]?.id ?? null;
      if (lastTurnId === null) {
        const first = native[0]?.id;
        if (!first) throw new Error("forkThread: the native thread has no turns to fork before");
        const forked = await this.client.request("thread/fork", { ...base, beforeTurnId: first });
        return { nativeThreadRef: this.rememberFork(source.nativeThreadRef, forked) };
      }
    }
    const forked = await this.client.request("thread/fork", { ...base, lastTurnId });
    return { nativeThreadRef: this.rememberFork(source.nativeThreadRef, forked) };
  }

  /**
   * C3: probe the history mode first. Paginated threads revert natively (`thread/revert` before
   * the first dropped turn); legacy threads fail here, before anything is sent to Codex.
   */
  async rollbackThread(nativeThreadRef: string, keep: NativeTurnBoundary | null) {
    const mode = await this.historyMode(nativeThreadRef);
    if (mode !== "paginated") {
      throw new CapabilityUnsupportedError(
        "codex",
        "rollback",
        "rollbackThread",
        `thread ${nativeThreadRef} uses ${mode} history; Codex only reverts paginated threads`,
      );
    }
    if (this.running.has(nativeThreadRef)) {
      throw new Error(`rollbackThread: thread ${nativeThreadRef} has a running turn`);
    }
    const native = await listNativeTurns(this.client, nativeThreadRef);
    const kept = keep ? keptTurnCount(native, keep, "rollbackThread") : 0;
    const firstDropped = native[kept];
    if (!firstDropped) return { removedTurns: 0 };
    await this.client.request("thread/revert", {
      threadId: nativeThreadRef,
      beforeTurnId: firstDropped.id,
    });
    return { removedTurns: native.length - kept };
  }

  async readHistory(nativeThreadRef: string) {
    const native = await listNativeTurns(this.client, nativeThreadRef);
    return native.map(toHistoryTurn);
  }

  startTurn(
    nativeThreadRef: string,
    input: TurnInput,
    options: { settings: ThreadSettings; onAppToolCall?: AppToolHandler },
  ): TurnHandle {
    // Checked before anything is sent or recorded: a mode without a known model is refused.
    const mode = turnModeParams(
      input,
      options.settings.model || this.threadModels.get(nativeThreadRef) || this.options.defaultModel,
      this.heldModes.get(nativeThreadRef),
    );
    if (this.running.has(nativeThreadRef)) {
      // `turn/start` on a busy thread would silently steer the running turn instead.
      throw new Error(`thread ${nativeThreadRef} already has a running turn`);
    }
    const turn = new CodexTurn(
      nativeThreadRef,
      options.onAppToolCall,
      this.options.coalesceMs,
      (ended) => {
        if (this.running.get(nativeThreadRef) === ended) this.running.delete(nativeThreadRef);
      },
    );
    this.running.set(nativeThreadRef, turn);
    for (const notice of this.notices.take(nativeThreadRef)) turn.notice(notice);
    const exit = this.client.exit;
    if (exit) {
      turn.abort("failed", {
        kind: "runtime_crashed",
        message: `codex app-server is not running (${describeExit(exit)})`,
      });
      return turn.handle;
    }
    if (input.compact) {
      // Codex answers with nothing: the compaction turn's id comes with its `turn/started`.
      this.client
        .request("thread/compact/start", { threadId: nativeThreadRef })
        .catch((error: unknown) => turn.abort("failed", failureOfWords(errorText(error))));
      return turn.handle;
    }
    const policy = runtimePolicy(options.settings.runtimeMode);
    // Until Codex answers, the thread may hold either mode: the next turn says its own.
    if (mode.collaborationMode) this.heldModes.delete(nativeThreadRef);
    this.client
      .request("turn/start", {
        threadId: nativeThreadRef,
        input: turnInput(input),
        approvalPolicy: policy.approvalPolicy,
        sandboxPolicy: policy.sandboxPolicy,
        ...(options.settings.model ? { model: options.settings.model } : {}),
        ...mode,
      })
      .then(
        (response) => {
          if (mode.collaborationMode) this.heldModes.set(nativeThreadRef, mode.collaborationMode);
          turn.markStarted(response.turn.id);
        },
        (error: unknown) => turn.abort("failed", failureOfWords(errorText(error))),
      );
    return turn.handle;
  }

  async steerTurn(nativeThreadRef: string, nativeTurnRef: string | null, text: string) {
    const expectedTurnId = await this.activeTurnId(nativeThreadRef, nativeTurnRef, "steerTurn");
    await this.client.request("turn/steer", {
      threadId: nativeThreadRef,
      expectedTurnId,
      input: [textInput(text)],
    });
  }

  async interruptTurn(nativeThreadRef: string, nativeTurnRef: string | null) {
    const running = this.running.get(nativeThreadRef);
    if (!running && nativeTurnRef === null) return;
    const turnId = await this.activeTurnId(nativeThreadRef, nativeTurnRef, "interruptTurn");
    // T9: the sub-agents working under the turn stop with it (Codex leaves them running).
    const children = running?.runningChildren() ?? [];
    await this.client.request("turn/interrupt", { threadId: nativeThreadRef, turnId });
    await Promise.all(
      children.map((child) =>
        this.client
          .request("turn/interrupt", { threadId: child.threadRef, turnId: child.turnRef })
          .catch(() => undefined),
      ),
    );
  }

  async respondToRequest(requestRef: string, answer: RuntimeRequestAnswer) {
    const request = this.requests.get(requestRef);
    if (!request || !answerRequest(request, answer)) {
      throw new Error(`runtime request ${requestRef} is no longer answerable`);
    }
  }

  requestsInFlight(): number {
    return this.client.pendingRequests;
  }

  isAlive(): boolean {
    return this.client.alive;
  }

  /** OS process id of the app-server, for diagnostics and crash tests. */
  get pid(): number | undefined {
    return this.client.pid;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private onServerRequest(request: IncomingServerRequest): void {
    this.requests.route(request, `${this.client.pid ?? "x"}:${request.id}`);
  }

  private onExit(exit: ProcessExit): void {
    // R2: nothing stays "running" once its process is gone.
    const status = exit.expected ? "interrupted" : "failed";
    for (const turn of [...this.running.values()]) {
      const message = `codex app-server ${describeExit(exit)}`;
      turn.abort(status, { kind: "runtime_crashed", message }, "runtime_exited");
    }
    this.requests.clear();
  }

  /** The running turn of the nearest thread that spawned this one (T9), not its own. */
  private ancestorTurn(threadId: string): CodexTurn | undefined {
    for (const id of this.lineage.ancestry(threadId)) {
      if (id === threadId) continue;
      const turn = this.running.get(id);
      if (turn) return turn;
    }
    return undefined;
  }

  /** The running turn of the thread, or of the nearest thread that spawned it (sub-agents). */
  private turnOf(threadId: string): CodexTurn | undefined {
    for (const id of this.lineage.ancestry(threadId)) {
      const turn = this.running.get(id);
      if (turn) return turn;
    }
    return undefined;
  }

  private async readParent(threadId: string): Promise<string | null> {
    const { thread } = await this.client.request("thread/read", { threadId });
    if (thread.parentThreadId) this.lineage.link(thread.id, thread.parentThreadId);
    return thread.parentThreadId;
  }

  private async activeTurnId(threadId: string, turnRef: string | null, operation: string) {
    if (turnRef !== null) return turnRef;
    const running = this.running.get(threadId);
    if (!running) throw new Error(`${operation}: no running turn on thread ${threadId}`);
    const { nativeTurnRef } = await running.handle.started;
    if (nativeTurnRef === null) throw new Error(`${operation}: the turn has no native id`);
    return nativeTurnRef;
  }

  private async historyMode(threadId: string): Promise<ThreadHistoryMode> {
    const known = this.historyModes.get(threadId);
    if (known) return known;
    const { thread } = await this.client.request("thread/read", { threadId });
    return this.historyModes.get(this.remember(thread)) ?? thread.historyMode;
  }

  /**
   * A fork of a thread that holds no collaboration mode holds none either (a mode once set stays,
   * so none was set at any of the source's turns); of any other, what it holds is not known.
   */
  private rememberFork(source: string, forked: { thread: Thread; model: string }): string {
    const ref = this.rememberLoaded(forked);
    if (this.heldModes.get(source) === null) this.heldModes.set(ref, null);
    return ref;
  }

  private rememberLoaded(loaded: { thread: Thread; model: string }): string {
    this.threadModels.set(loaded.thread.id, loaded.model);
    return this.remember(loaded.thread);
  }

  private remember(thread: Thread): string {
    this.historyModes.set(thread.id, thread.historyMode);
    return thread.id;
  }
}

function turnInput(input: TurnInput): UserInput[] {
  // A handoff goes in as its own text part ahead of the message, so it stays distinguishable.
  const text = input.context
    ? [textInput(input.context.text), textInput(input.text)]
    : [textInput(input.text)];
  const images = (input.attachments ?? []).map(
    (file): UserInput => ({ type: "localImage", path: file.path }),
  );
  return [...text, ...images];
}

function textInput(text: string): UserInput {
  return { type: "text", text, text_elements: [] };
}

function describeExit(exit: ProcessExit): string {
  if (exit.spawnError) return `failed to start: ${exit.spawnError}`;
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
