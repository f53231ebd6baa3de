import { AsyncQueue } from "@skein/adapter-kit";
import type {
  ProviderFailure,
  RuntimeEvent,
  RuntimeItemKind,
  RuntimeTurnStatus,
  TurnHandle,
} from "@skein/domain/provider";
import { type AgentTurnError, scriptedTurnFailure } from "./turn-failure.ts";

type ItemStatus = Extract<RuntimeEvent, { type: "item.completed" }>["status"];
type Params = Record<string, unknown>;

/** The agent's item kinds as Skein's. */
const KINDS: Record<string, RuntimeItemKind> = {
  text: "assistant_message",
  command: "command_execution",
};
const ITEM_STATUSES = new Set<string>(["completed", "failed", "declined", "interrupted"]);

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * One turn of the scripted agent: its notifications (`item/started`, `item/delta`,
 * `item/completed`, `turn/completed`) as RuntimeEvents, `turn.started` first and exactly one
 * `turn.completed` last, with any item still open closed before it (A3).
 */
export class ScriptedTurn implements TurnHandle {
  private readonly queue = new AsyncQueue<RuntimeEvent>();
  private readonly open = new Map<string, RuntimeItemKind>();
  private markStarted!: (value: { nativeTurnRef: string | null }) => void;
  private failStart!: (error: unknown) => void;
  readonly events: AsyncIterable<RuntimeEvent> = this.queue;
  readonly started = new Promise<{ nativeTurnRef: string | null }>((resolve, reject) => {
    this.markStarted = resolve;
    this.failStart = reject;
  });
  turnId: string | null = null;

  constructor() {
    // A turn that never started is read through its events; nobody need await `started`.
    this.started.catch(() => undefined);
  }

  get isEnded(): boolean {
    return this.queue.isEnded;
  }

  /** The agent accepted the turn under `turnId` (its answer, or its first notification). */
  begin(turnId: string): void {
    if (this.turnId !== null) return;
    this.turnId = turnId;
    this.queue.push({ type: "turn.started", nativeTurnRef: turnId });
    this.markStarted({ nativeTurnRef: turnId });
  }

  /** The agent refused to start the turn: it ends failed, in its words, before it began. */
  refuse(error: unknown, failure: ProviderFailure): void {
    this.failStart(error);
    this.queue.push({ type: "turn.started", nativeTurnRef: null });
    this.end("failed", failure);
  }

  /** One notification of this turn; `rawEventId` points into the raw log (E18). */
  receive(method: string, params: Params, rawEventId?: string): void {
    const turnId = str(params.turnId);
    if (turnId) this.begin(turnId);
    for (const event of this.eventsOf(method, params)) {
      this.queue.push(rawEventId ? { ...event, rawEventId } : event);
    }
  }

  /** An event the session makes for this turn (a request opened or closed). */
  emit(event: RuntimeEvent): void {
    this.queue.push(event);
  }

  private eventsOf(method: string, params: Params): RuntimeEvent[] {
    const itemRef = str(params.itemId) ?? "";
    const kind = KINDS[str(params.kind) ?? ""];
    switch (method) {
      case "item/started": {
        if (!kind) return [];
        this.open.set(itemRef, kind);
        return [{ type: "item.started", itemRef, kind, fields: this.fieldsOf(kind, params) }];
      }
      case "item/delta":
        return [{ type: "item.delta", itemRef, field: "text", delta: str(params.text) ?? "" }];
      case "item/completed": {
        if (!kind) return [];
        this.open.delete(itemRef);
        const status = str(params.status) ?? "";
        return [
          {
            type: "item.completed",
            itemRef,
            kind,
            status: (ITEM_STATUSES.has(status) ? status : "completed") as ItemStatus,
            fields: this.fieldsOf(kind, params),
          },
        ];
      }
      case "turn/completed": {
        const status = str(params.status);
        if (status === "failed") {
          this.end("failed", scriptedTurnFailure(params as unknown as AgentTurnError));
        } else this.end(status === "interrupted" ? "interrupted" : "completed");
        return [];
      }
      default:
        return [];
    }
  }

  private fieldsOf(kind: RuntimeItemKind, params: Params) {
    if (kind === "assistant_message") return { text: str(params.text) ?? "" };
    return {
      command: str(params.command),
      cwd: str(params.cwd),
      output: str(params.output),
      exitCode: typeof params.exitCode === "number" ? params.exitCode : undefined,
    };
  }

  /** Ends the turn once: open items close with it, then its one `turn.completed`. */
  end(status: RuntimeTurnStatus, failure?: ProviderFailure): void {
    if (this.queue.isEnded) return;
    const itemStatus: ItemStatus = status === "completed" ? "completed" : "interrupted";
    for (const [itemRef, kind] of this.open) {
      this.queue.push({ type: "item.completed", itemRef, kind, status: itemStatus, fields: {} });
    }
    this.open.clear();
    this.queue.push({
      type: "turn.completed",
      nativeTurnRef: this.turnId,
      status,
      ...(failure ? { error: failure.message, failure } : {}),
    });
    this.queue.end();
  }
}
