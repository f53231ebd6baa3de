import {
  type AppToolHandler,
  type NativeTurnBoundary,
  type ProviderCapabilityFlags,
  type ProviderId,
  type ProviderSessionHandle,
  type RuntimeEvent,
  type RuntimeRequestAnswer,
  requireCapability,
  type ThreadSettings,
  type TurnHandle,
  type TurnInput,
} from "@skein/domain/provider";
import { AsyncQueue } from "@skein/adapter-kit";
import type { NativeStore } from "./native-store.ts";
import type { ReplyFn, ScriptStep } from "./script.ts";
import { type PendingRequest, runTurn, type TurnRun } from "./turn-runner.ts";

export type SessionHooks = {
  record(op: string, args: unknown): void;
  nextScript(context: Parameters<ReplyFn>[0]): ScriptStep[];
  failures: { resume: number; fork: number };
};

/** One scripted runtime: behaves like a provider process hosting several native threads. */
export class ScriptedSession implements ProviderSessionHandle {
  readonly runtimeVersion = "scripted-1";
  private alive = true;
  private readonly running = new Map<string, TurnRun>();
  private readonly requests = new Map<string, PendingRequest>();

  constructor(
    readonly providerSessionId: string,
    readonly provider: ProviderId,
    readonly capabilities: ProviderCapabilityFlags,
    private readonly store: NativeStore,
    private readonly hooks: SessionHooks,
  ) {}

  private check(op: string, args: unknown) {
    if (!this.alive)
      throw new Error(`${this.provider} session ${this.providerSessionId} is not alive`);
    this.hooks.record(op, args);
  }

  async startThread(settings: ThreadSettings) {
    this.check("startThread", { settings });
    return { nativeThreadRef: this.store.create(null).ref };
  }

  async resumeThread(nativeThreadRef: string, settings: ThreadSettings) {
    requireCapability(this.provider, this.capabilities, "resume", "resumeThread");
    this.check("resumeThread", { nativeThreadRef, settings });
    if (this.hooks.failures.resume > 0) {
      this.hooks.failures.resume -= 1;
      throw new Error(`scripted resume failure for ${nativeThreadRef}`);
    }
    this.store.get(nativeThreadRef);
    return { nativeThreadRef };
  }

  async forkThread(
    source: { nativeThreadRef: string; at: NativeTurnBoundary | null },
    settings: ThreadSettings,
  ) {
    requireCapability(this.provider, this.capabilities, "nativeFork", "forkThread");
    if (source.at && !this.capabilities.forkAtTurn) {
      requireCapability(this.provider, this.capabilities, "forkAtTurn", "forkThread");
    }
    this.check("forkThread", { source, settings });
    if (this.hooks.failures.fork > 0) {
      this.hooks.failures.fork -= 1;
      throw new Error(`scripted native fork failure for ${source.nativeThreadRef}`);
    }
    const turns = this.store.get(source.nativeThreadRef).turns;
    const keep = source.at ? turns.findIndex((t) => t.ref === source.at?.turn.nativeTurnRef) : -2;
    const kept =
      keep === -2
        ? turns
        : keep >= 0
          ? turns.slice(0, keep + 1)
          : turns.slice(0, source.at?.turn.ordinal ?? 0);
    const copy = kept.map((t) => ({ ...t, steers: [...t.steers] }));
    return { nativeThreadRef: this.store.create(source.nativeThreadRef, copy).ref };
  }

  async rollbackThread(nativeThreadRef: string, keep: NativeTurnBoundary | null) {
    requireCapability(this.provider, this.capabilities, "rollback", "rollbackThread");
    this.check("rollbackThread", { nativeThreadRef, keep });
    const thread = this.store.get(nativeThreadRef);
    const keepCount = keep ? keep.turn.ordinal : 0;
    const removed = Math.max(0, thread.turns.length - keepCount);
    thread.turns.length = Math.min(thread.turns.length, keepCount);
    return { removedTurns: removed };
  }

  async readHistory(nativeThreadRef: string) {
    requireCapability(this.provider, this.capabilities, "readHistory", "readHistory");
    this.check("readHistory", { nativeThreadRef });
    return this.store.get(nativeThreadRef).turns.map((t, i) => ({
      nativeTurnRef: this.capabilities.strongTurnIds ? t.ref : null,
      ordinal: i + 1,
      userText: t.input.text,
      assistantText: t.assistantText,
    }));
  }

  startTurn(
    nativeThreadRef: string,
    input: TurnInput,
    options: { settings: ThreadSettings; onAppToolCall?: AppToolHandler },
  ): TurnHandle {
    this.check("startTurn", { nativeThreadRef, input, settings: options.settings });
    const thread = this.store.get(nativeThreadRef);
    const history = thread.turns.map((t) => ({ input: t.input, assistantText: t.assistantText }));
    const turn = {
      ref: this.store.nextRef("turn"),
      input,
      steers: [],
      assistantText: "",
      status: "running" as const,
    };
    thread.turns.push(turn);
    const queue = new AsyncQueue<RuntimeEvent>();
    const run: TurnRun = {
      turn,
      nativeThreadRef,
      queue,
      settings: options.settings,
      onAppToolCall: options.onAppToolCall,
      store: this.store,
      requests: this.requests,
      interrupted: false,
      abort: null,
    };
    this.running.set(nativeThreadRef, run);
    const steps = this.hooks.nextScript({ nativeThreadRef, input, history });
    const nativeTurnRef = this.capabilities.strongTurnIds ? turn.ref : null;
    void runTurn(run, steps).finally(() => {
      if (this.running.get(nativeThreadRef) === run) this.running.delete(nativeThreadRef);
    });
    return { events: queue, started: Promise.resolve({ nativeTurnRef }) };
  }

  async steerTurn(nativeThreadRef: string, nativeTurnRef: string | null, text: string) {
    requireCapability(this.provider, this.capabilities, "steer", "steerTurn");
    this.check("steerTurn", { nativeThreadRef, nativeTurnRef, text });
    const run = this.running.get(nativeThreadRef);
    if (!run) throw new Error(`no running turn on ${nativeThreadRef}`);
    run.turn.steers.push(text);
  }

  async interruptTurn(nativeThreadRef: string, nativeTurnRef: string | null) {
    this.check("interruptTurn", { nativeThreadRef, nativeTurnRef });
    const run = this.running.get(nativeThreadRef);
    if (!run) return;
    run.interrupted = true;
    run.abort?.();
  }

  async respondToRequest(requestRef: string, answer: RuntimeRequestAnswer) {
    this.check("respondToRequest", { requestRef, answer });
    const pending = this.requests.get(requestRef);
    if (!pending) throw new Error(`request ${requestRef} is no longer answerable`);
    this.requests.delete(requestRef);
    pending.resolve(answer);
  }

  isAlive() {
    return this.alive;
  }

  /** Test hook: the runtime dies; running turns end failed, as when a provider process is killed. */
  kill() {
    this.alive = false;
    for (const run of this.running.values()) {
      run.abort = null;
      run.turn.status = "failed";
      run.queue.push({
        type: "turn.completed",
        nativeTurnRef: run.turn.ref,
        status: "failed",
        error: "runtime exited",
      });
      run.queue.end();
    }
    this.running.clear();
    this.requests.clear();
  }

  async close() {
    this.hooks.record("close", { providerSessionId: this.providerSessionId });
    for (const run of this.running.values()) {
      run.interrupted = true;
      run.abort?.();
    }
    this.alive = false;
  }
}
