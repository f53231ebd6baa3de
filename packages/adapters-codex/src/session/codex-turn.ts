import type {
  AppToolHandler,
  RuntimeEvent,
  RuntimeRequestKind,
  RuntimeTurnStatus,
  TurnHandle,
} from "@skein/domain/provider";
import { notificationTurnId } from "../mapping/notification-routing.ts";
import { requestOpenedEvent } from "../mapping/request-mapping.ts";
import { TurnEventMapper } from "../mapping/turn-event-mapper.ts";
import type { NotificationEnvelope } from "../rpc/app-server-client.ts";
import { AsyncQueue } from "../rpc/async-queue.ts";
import type { IncomingServerRequest } from "../rpc/server-requests.ts";

/**
 * One running Codex turn as Skein sees it: the normalized event stream, the native turn id once
 * known, and the runtime requests opened during it (closed again before the turn ends).
 */
export class CodexTurn {
  readonly queue = new AsyncQueue<RuntimeEvent>();
  readonly handle: TurnHandle;
  private readonly mapper: TurnEventMapper;
  private readonly openRequests = new Set<string>();
  /** Turn-scoped notifications that arrived before this turn's id was known. */
  private readonly early: NotificationEnvelope[] = [];
  private resolveStarted: (value: { nativeTurnRef: string | null }) => void = () => {};
  private rejectStarted: (error: unknown) => void = () => {};
  private turnId: string | null = null;

  constructor(
    readonly nativeThreadRef: string,
    readonly onAppToolCall: AppToolHandler | undefined,
    coalesceMs: number,
    private readonly onEnd: (turn: CodexTurn) => void,
  ) {
    this.mapper = new TurnEventMapper(
      (event) => this.queue.push(event),
      coalesceMs,
      () => this.closeAllRequests("turn_ended"),
    );
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

  openRequest(request: IncomingServerRequest, requestRef: string, kind: RuntimeRequestKind): void {
    this.openRequests.add(requestRef);
    this.mapper.emit(requestOpenedEvent(request, requestRef, kind));
  }

  closeRequest(requestRef: string, reason: string): void {
    if (!this.openRequests.delete(requestRef)) return;
    this.mapper.emit({ type: "request.closed", requestRef, reason });
  }

  /** Ends the turn without Codex's word: the request failed, or the process died or was closed. */
  abort(status: RuntimeTurnStatus, error: string, requestCloseReason = "turn_ended"): void {
    this.rejectStarted(new Error(error));
    this.closeAllRequests(requestCloseReason);
    this.mapper.finish(status, error);
    this.end();
  }

  private closeAllRequests(reason: string): void {
    for (const ref of [...this.openRequests]) this.closeRequest(ref, reason);
  }

  private deliver(n: NotificationEnvelope): void {
    this.mapper.handle(n);
    if (this.mapper.done) this.end();
  }

  private end(): void {
    this.queue.end();
    this.onEnd(this);
  }
}
