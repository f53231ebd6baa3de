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
  }

  /** Notifications of this turn's thread; those of other turns on it are ignored. */
  notify(n: NotificationEnvelope): void {
    const turnId = notificationTurnId(n);
    const mine = this.nativeTurnRef;
    if (mine !== null && turnId !== null && turnId !== mine) return;
    if (n.method === "turn/started") this.markStarted(n.params.turn.id);
    this.mapper.handle(n);
    if (this.mapper.done) this.end();
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

  private end(): void {
    this.queue.end();
    this.onEnd(this);
  }
}
