import {
  type AppToolHandler,
  type ProviderFailure,
  ProviderFailureError,
  type RuntimeEvent,
  type RuntimeRequestKind,
  type RuntimeTurnStatus,
  type TurnHandle,
} from "@skein/domain/provider";
import { notificationTurnId } from "../mapping/notification-routing.ts";
import type { RuntimeNotice } from "./runtime-notices.ts";
import { requestOpenedEvent } from "../mapping/request-mapping.ts";
import { TurnEventMapper } from "../mapping/turn-event-mapper.ts";
import type { NotificationEnvelope } from "../rpc/app-server-client.ts";
import { AsyncQueue } from "@skein/adapter-kit";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";

/**
 * One running Codex turn as Skein sees it: the normalized event stream, the native turn id once
 * known, and the runtime requests opened during it (closed again before the turn ends).
 */
export class CodexTurn {
  readonly queue = new AsyncQueue<RuntimeEvent>();
  readonly handle: TurnHandle;
  private readonly coalesceMs: number;
  private readonly mapper: TurnEventMapper;
  /** Open requests, each with the sub-agent thread that asked it (undefined: this turn's own). */
  private readonly openRequests = new Map<string, string | undefined>();
  /** Turn-scoped notifications that arrived before this turn's id was known. */
  private readonly early: NotificationEnvelope[] = [];
  private resolveStarted: (value: { nativeTurnRef: string | null }) => void = () => {};
  private rejectStarted: (error: unknown) => void = () => {};
  private turnId: string | null = null;
  /** T9: the current turn of each sub-agent thread spawned under this turn. */
  private readonly children = new Map<string, TurnEventMapper>();
  /** The item of this turn that spawned each sub-agent thread, and what it was asked. */
  private readonly spawns = new Map<string, { itemRef: string; description?: string }>();

  constructor(
    readonly nativeThreadRef: string,
    readonly onAppToolCall: AppToolHandler | undefined,
    coalesceMs: number,
    private readonly onEnd: (turn: CodexTurn) => void,
  ) {
    this.mapper = new TurnEventMapper(
      (event) => this.queue.push(event),
      coalesceMs,
      () => {
        this.closeAllRequests("turn_ended");
        this.closeChildren();
      },
    );
    this.coalesceMs = coalesceMs;
    const started = new Promise<{ nativeTurnRef: string | null }>((resolve, reject) => {
      this.resolveStarted = resolve;
      this.rejectStarted = reject;
    });
    // A turn that fails before starting still ends its event stream; nobody may be awaiting this.
    started.catch(() => {});
    this.handle = { events: this.queue, started };
  }

  get nativeTurnRef(): string | null {
    return this.turnId ?? this.mapper.turnRef;
  }

  get ended(): boolean {
    return this.mapper.done;
  }

  /** `turn/start` answered: the native turn exists. */
  markStarted(turnId: string): void {
    this.turnId = turnId;
    this.resolveStarted({ nativeTurnRef: turnId });
    for (const n of this.early.splice(0)) {
      if (notificationTurnId(n) === turnId) this.deliver(n);
    }
  }

  /** E5: a notice Codex gave before this turn (see runtime-notices.ts). */
  notice(notice: RuntimeNotice): void {
    this.mapper.notice(notice);
  }

  /** Notifications of this turn's thread; those of other turns on it are ignored. */
  notify(n: NotificationEnvelope): void {
    const turnId = notificationTurnId(n);
    if (n.method === "turn/started" && this.turnId === null) {
      this.deliver(n);
      this.markStarted(n.params.turn.id);
      return;
    }
    const mine = this.nativeTurnRef;
    if (mine === null && turnId !== null) {
      // Which turn is ours is unknown until `turn/start` answers, and an earlier turn's
      // notification can still arrive (right after `thread/resume` Codex re-announces the last
      // turn's token usage): hold it until then, so it is neither reported nor put first.
      this.early.push(n);
      return;
    }
    if (mine !== null && turnId !== null && turnId !== mine) return;
    this.deliver(n);
  }

  /**
   * T9: a notification of a sub-agent thread spawned (directly or further down) under this turn.
   * Its turns become `subagent.started` … `subagent.completed`, its items and requests carry
   * `childThreadRef`, so they can be told apart from this turn's own.
   */
  notifyChild(childThreadRef: string, n: NotificationEnvelope): void {
    if (this.mapper.done) return;
    let child = this.children.get(childThreadRef);
    if (n.method === "turn/started" && (!child || child.done)) {
      // A request still open when the sub-agent's turn ends will not be asked again: withdrawn.
      child = new TurnEventMapper(
        (e) => this.fromChild(childThreadRef, e),
        this.coalesceMs,
        () => this.closeChildRequests(childThreadRef),
      );
      this.children.set(childThreadRef, child);
    }
    if (child && !child.done) child.handle(n);
  }

  /** Sub-agent turns still running under this turn (to interrupt them with it). */
  runningChildren(): Array<{ threadRef: string; turnRef: string }> {
    const out: Array<{ threadRef: string; turnRef: string }> = [];
    for (const [threadRef, child] of this.children) {
      if (!child.done && child.turnRef !== null) out.push({ threadRef, turnRef: child.turnRef });
    }
    return out;
  }

  openRequest(request: IncomingServerRequest, requestRef: string, kind: RuntimeRequestKind): void {
    const params: unknown = request.params;
    const threadId =
      typeof params === "object" && params !== null && "threadId" in params
        ? String(params.threadId)
        : null;
    // A sub-agent's request is asked in the sub-agent's own (child) thread when it is followed.
    const child = threadId === null ? undefined : this.children.get(threadId);
    // A file change's item started on the thread that asks: the sub-agent's, or this turn's.
    const event = requestOpenedEvent(
      request,
      requestRef,
      kind,
      (itemRef) => child?.changesOf(itemRef) ?? this.mapper.changesOf(itemRef),
    );
    const fromChild =
      threadId !== null && threadId !== this.nativeThreadRef && child && !child.done;
    this.openRequests.set(requestRef, fromChild ? threadId : undefined);
    this.mapper.emit(fromChild ? { ...event, childThreadRef: threadId } : event);
  }

  closeRequest(requestRef: string, reason: string): void {
    if (!this.openRequests.has(requestRef)) return;
    const childThreadRef = this.openRequests.get(requestRef);
    this.openRequests.delete(requestRef);
    this.mapper.emit({
      type: "request.closed",
      requestRef,
      reason,
      ...(childThreadRef === undefined ? {} : { childThreadRef }),
    });
  }

  /** Ends the turn without Codex's word: the request failed, or the process died or was closed. */
  abort(
    status: RuntimeTurnStatus,
    cause: ProviderFailure,
    requestCloseReason = "turn_ended",
  ): void {
    this.rejectStarted(new ProviderFailureError(cause));
    this.closeAllRequests(requestCloseReason);
    this.mapper.finish(status, status === "failed" ? cause : cause.message);
    this.end();
  }

  private closeChildRequests(childThreadRef: string): void {
    for (const [ref, asker] of [...this.openRequests]) {
      if (asker === childThreadRef) this.closeRequest(ref, "withdrawn");
    }
  }

  private closeAllRequests(reason: string): void {
    for (const ref of [...this.openRequests.keys()]) this.closeRequest(ref, reason);
  }

  private deliver(n: NotificationEnvelope): void {
    this.learnSpawn(n);
    this.mapper.handle(n);
    if (this.mapper.done) this.end();
  }

  /** Remembers which item of this turn spawned which sub-agent thread (T9). */
  private learnSpawn(n: NotificationEnvelope): void {
    if (n.method !== "item/started" && n.method !== "item/completed") return;
    const { item } = n.params;
    if (item.type === "subAgentActivity" && item.kind === "started") {
      this.spawns.set(item.agentThreadId, { itemRef: item.id, description: item.agentPath });
    }
    if (item.type === "collabAgentToolCall" && item.tool === "spawnAgent") {
      for (const child of item.receiverThreadIds) {
        this.spawns.set(child, {
          itemRef: item.id,
          ...(item.prompt ? { description: item.prompt } : {}),
        });
      }
    }
  }

  private fromChild(childThreadRef: string, event: RuntimeEvent): void {
    if (event.type === "turn.started") {
      const spawn = this.spawns.get(childThreadRef);
      this.mapper.emit({
        type: "subagent.started",
        childThreadRef,
        nativeTurnRef: event.nativeTurnRef,
        parentItemRef: spawn?.itemRef ?? null,
        // Codex refuses direct input to a multi_agent_v2 sub-agent thread ("direct app-server
        // input is not allowed"): only its parent talks to it, so Skein never resumes it alone.
        resumable: false,
        ...(spawn?.description ? { description: spawn.description } : {}),
        ...(event.rawEventId ? { rawEventId: event.rawEventId } : {}),
      });
      return;
    }
    if (event.type === "turn.completed") {
      const { type: _type, ...ended } = event;
      this.mapper.emit({ ...ended, type: "subagent.completed", childThreadRef });
      return;
    }
    this.mapper.emit({ ...event, childThreadRef });
  }

  /** The parent turn ends: a sub-agent turn still open is no longer followed (R2). */
  private closeChildren(): void {
    for (const child of this.children.values()) {
      child.finish("interrupted", "the parent turn ended before this sub-agent's turn did");
    }
  }

  private end(): void {
    this.queue.end();
    this.onEnd(this);
  }
}
