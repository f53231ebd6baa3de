import type {
  ProviderFailure,
  RuntimeEvent,
  RuntimeFileChange,
  RuntimeItemKind,
  RuntimeTurnStatus,
} from "@skein/domain/provider";
import type { ThreadItem } from "../protocol/index.ts";
import type { NotificationEnvelope } from "../rpc/app-server-client.ts";
import { DeltaCoalescer, failureOfWords } from "@skein/adapter-kit";
import { itemEndStatus, mapItem } from "./item-mapping.ts";
import { codexTurnFailure } from "./turn-failure.ts";
import type { RuntimeNotice } from "../session/runtime-notices.ts";

const PLAN_STATUS = { pending: "pending", inProgress: "running", completed: "completed" } as const;

/**
 * Turns one Codex turn's notifications into normalized runtime events, ending with exactly one
 * `turn.completed`. Codex leaves items open when a turn is interrupted or fails (a streaming agent
 * message never gets `item/completed`), so open items are closed here before the turn ends.
 */
export class TurnEventMapper {
  private readonly out: DeltaCoalescer;
  private readonly openItems = new Map<string, RuntimeItemKind>();
  /** Started fileChange items' changes, until they complete: what their approvals are about. */
  private readonly pendingChanges = new Map<string, RuntimeFileChange[]>();
  private nativeTurnRef: string | null = null;
  private lastFailure: ProviderFailure | null = null;
  private readonly usage = {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
  };
  private ended = false;
  /** Notices given before the turn started: they wait for it (their nodes need the turn). */
  private readonly earlyNotices: RuntimeNotice[] = [];
  private noticeCount = 0;

  /** `beforeFinish` runs just before `turn.completed`, while events can still be emitted. */
  constructor(
    emit: (event: RuntimeEvent) => void,
    coalesceMs: number,
    private readonly beforeFinish: () => void = () => {},
  ) {
    this.out = new DeltaCoalescer(emit, coalesceMs);
  }

  get turnRef(): string | null {
    return this.nativeTurnRef;
  }

  get done(): boolean {
    return this.ended;
  }

  /** The changes of a fileChange item of this turn that started and has not completed. */
  changesOf(itemRef: string): readonly RuntimeFileChange[] | undefined {
    return this.pendingChanges.get(itemRef);
  }

  /** Emits an event that does not come from a notification (requests opened/closed). */
  emit(event: RuntimeEvent): void {
    if (!this.ended) this.out.emit(event);
  }

  /** Feeds one notification of this turn's thread. */
  handle(n: NotificationEnvelope): void {
    if (this.ended) return;
    const raw = n.rawEventId === null ? {} : { rawEventId: n.rawEventId };
    switch (n.method) {
      case "turn/started":
        this.nativeTurnRef = n.params.turn.id;
        this.out.emit({ type: "turn.started", nativeTurnRef: n.params.turn.id, ...raw });
        for (const notice of this.earlyNotices.splice(0)) this.notice(notice);
        return;
      case "warning":
        this.notice({ summary: n.params.message, rawEventId: n.rawEventId });
        return;
      case "model/rerouted": {
        const { fromModel, toModel, reason } = n.params;
        const summary = `Model rerouted from ${fromModel} to ${toModel} (${reason})`;
        this.notice({ summary, rawEventId: n.rawEventId });
        return;
      }
      case "item/started":
        this.itemStarted(n.params.item, raw);
        return;
      case "item/completed":
        this.itemCompleted(n.params.item, raw);
        return;
      case "item/agentMessage/delta":
      case "item/reasoning/summaryTextDelta":
      case "item/reasoning/textDelta":
        this.delta(n.params.itemId, "text", n.params.delta, raw);
        return;
      case "item/commandExecution/outputDelta":
      case "item/fileChange/outputDelta":
        this.delta(n.params.itemId, "output", n.params.delta, raw);
        return;
      case "turn/plan/updated":
        this.out.emit({
          type: "plan.updated",
          planRef: `plan:${n.params.turnId}`,
          kind: "todo_list",
          steps: n.params.plan.map((s) => ({ text: s.step, status: PLAN_STATUS[s.status] })),
          ...(n.params.explanation ? { markdown: n.params.explanation } : {}),
          ...raw,
        });
        return;
      case "thread/tokenUsage/updated": {
        // `last` is one model response; a turn with tool calls makes several. Report the turn's
        // running total, so the latest usage event is the whole turn (as other providers report).
        const last = n.params.tokenUsage.last;
        const usage = this.usage;
        usage.inputTokens += last.inputTokens;
        usage.outputTokens += last.outputTokens;
        usage.cachedInputTokens += last.cachedInputTokens;
        usage.reasoningTokens += last.reasoningOutputTokens;
        // The latest response's total is how full the context window is now (issue 29 meter).
        const window = n.params.tokenUsage.modelContextWindow;
        this.out.emit({
          type: "usage",
          ...usage,
          contextTokens: last.totalTokens,
          ...(window !== null && window > 0 ? { contextWindow: window } : {}),
          ...raw,
        });
        return;
      }
      case "error":
        // B15: "Reconnecting... 2/5" (or "… waiting for network") while Codex retries the model.
        if (n.params.willRetry)
          this.out.emit({ type: "model.retrying", ...retryOf(n.params.error), ...raw });
        else this.lastFailure = codexTurnFailure(n.params.error);
        return;
      case "turn/completed": {
        const turn = n.params.turn;
        if (turn.status === "inProgress") return;
        this.finish(
          turn.status,
          turn.error ? codexTurnFailure(turn.error) : undefined,
          raw.rawEventId,
        );
        return;
      }
      default:
        return;
    }
  }

  /**
   * Ends the turn: closes open items, then emits `turn.completed`. Used for Codex's own
   * completion and for endings Codex cannot report (its process died). `cause` is a failure's
   * reading, or words (a failure's, read here, or why a turn was interrupted).
   */
  finish(status: RuntimeTurnStatus, cause?: ProviderFailure | string, rawEventId?: string): void {
    if (this.ended) return;
    this.beforeFinish();
    const itemStatus = status === "failed" ? "failed" : "interrupted";
    for (const [itemRef, kind] of this.openItems) {
      this.out.emit({ type: "item.completed", itemRef, kind, status: itemStatus, fields: {} });
    }
    this.openItems.clear();
    this.pendingChanges.clear();
    const failure =
      status !== "failed"
        ? undefined
        : typeof cause === "object"
          ? cause
          : cause !== undefined
            ? failureOfWords(cause)
            : (this.lastFailure ?? failureOfWords("turn failed", "internal"));
    const message = failure?.message ?? (typeof cause === "string" ? cause : undefined);
    this.out.emit({
      type: "turn.completed",
      nativeTurnRef: this.nativeTurnRef,
      status,
      ...(message === undefined ? {} : { error: message }),
      ...(failure === undefined ? {} : { failure }),
      ...(rawEventId === undefined ? {} : { rawEventId }),
    });
    this.ended = true;
  }

  /**
   * E5: a runtime notice as a `system` node of this turn, started and ended at once. Codex gives
   * notices no id: the ref is made up here (a count), so it is weak (E18).
   */
  notice(notice: RuntimeNotice): void {
    if (this.ended) return;
    if (this.nativeTurnRef === null) {
      this.earlyNotices.push(notice);
      return;
    }
    this.noticeCount += 1;
    const itemRef = `notice:${this.noticeCount}`;
    const fields = { summary: notice.summary };
    const raw = notice.rawEventId === null ? {} : { rawEventId: notice.rawEventId };
    const common = { itemRef, refStrength: "weak", kind: "notice", fields, ...raw } as const;
    this.out.emit({ type: "item.started", ...common });
    this.out.emit({ type: "item.completed", ...common, status: "completed" });
  }

  private itemStarted(item: ThreadItem, raw: { rawEventId?: string }): void {
    const mapped = mapItem(item);
    if (!mapped) return;
    this.openItems.set(item.id, mapped.kind);
    if (mapped.fields.changes) this.pendingChanges.set(item.id, mapped.fields.changes);
    this.out.emit({ type: "item.started", itemRef: item.id, ...mapped, ...raw });
  }

  private itemCompleted(item: ThreadItem, raw: { rawEventId?: string }): void {
    if (item.type === "plan") {
      this.out.emit({
        type: "plan.updated",
        planRef: item.id,
        kind: "proposed_plan",
        markdown: item.text,
        ...raw,
      });
      return;
    }
    const mapped = mapItem(item);
    if (!mapped) return;
    this.openItems.delete(item.id);
    this.pendingChanges.delete(item.id);
    this.out.emit({
      type: "item.completed",
      itemRef: item.id,
      ...mapped,
      status: itemEndStatus(item),
      ...raw,
    });
  }

  private delta(
    itemRef: string,
    field: "text" | "output",
    delta: string,
    raw: { rawEventId?: string },
  ): void {
    this.out.delta({ type: "item.delta", itemRef, field, delta, ...raw });
  }
}

/** Codex's retry count ("Reconnecting... 2/5") and its own words for why. */
export function retryOf(error: { message: string; additionalDetails: string | null }): {
  attempt: number | null;
  maxAttempts: number | null;
  cause: string;
} {
  const count = /(\d+)\s*\/\s*(\d+)/.exec(error.message);
  return {
    attempt: count ? Number(count[1]) : null,
    maxAttempts: count ? Number(count[2]) : null,
    cause: (error.additionalDetails ?? "").trim() || error.message,
  };
}
