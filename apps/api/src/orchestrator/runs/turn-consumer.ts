import { requestDetail } from "./request-detail.ts";
import type {
  IdSource,
  NodeId,
  PlanId,
  ProviderSessionId,
  ProviderTurnId,
  RuntimeRequestId,
  ThreadId,
  TokenUsage,
  UsageLimitHit,
} from "@skein/domain";
import { isDomainError } from "@skein/domain";
import {
  type ProviderFailure,
  providerFailureOf,
  type RuntimeEvent,
  type RuntimeItemFields,
  unexplainedFailure,
} from "@skein/domain/provider";
import type { AggregateRepository } from "../commands/aggregate-repository.ts";
import type { LiveRequest } from "../runtime/live-requests.ts";
import { completionContentOf, contentOf, nodeKindOf } from "./item-content.ts";

/** `request.closed` reasons meaning the provider stopped waiting without our answer. */
const WITHDRAWN = new Set(["withdrawn"]);

function withdrawnReason(reason: string): string {
  return reason === "withdrawn"
    ? "The provider withdrew this request before it was answered; nothing to answer any more."
    : reason;
}

/** How a turn ended; a failed one with its cause as the adapter read it (B2). */
export type TurnOutcome =
  | { status: "completed" | "interrupted"; failure?: undefined }
  | { status: "failed"; failure: ProviderFailure };

/** What the run loop does with a turn that failed, before its end is recorded. */
export type FailureHooks = {
  /** May start a new attempt of the run (B2); the failed turn then ends alone. */
  before?: (failure: ProviderFailure) => Promise<void>;
  /** Puts the failure in words for the person reading it (the provider's words stay in). */
  describe?: (failure: ProviderFailure) => string;
  /** Issue 32: the usage limit the run ends at, recorded with the failed turn's end. */
  usageLimit?: () => UsageLimitHit | undefined;
};

/** T9: where a turn's sub-agent events go (see subagent-threads.ts). */
export type ChildEvents = {
  /** `parentNodeOf` finds the parent turn's node of a native item (the spawning call). */
  apply(event: RuntimeEvent, parentNodeOf: (itemRef: string) => NodeId | undefined): Promise<void>;
  /** Whether a child turn is still open (its end is then recorded by `closeAll`). */
  hasOpen(): boolean;
  /** The parent turn ended: child turns still open end too. */
  closeAll(): Promise<void>;
};

type Command = Parameters<AggregateRepository["execute"]>[0];

/**
 * Commands held for one append: `outcomeAt` is how many were held when the turn's end arrived,
 * `refusedAt` the index of the one the store refused (the ones before it are recorded).
 */
type Batch = {
  commands: Command[];
  /** When the first held command was held (performance.now()), or null. */
  since: number | null;
  outcomeAt: number | null;
  refusedAt: number | null;
};

/** Most commands held for one append: a turn that streams without a pause still shows progress. */
const MAX_BATCH = 64;

/**
 * How long commands are held for more of the turn's events: a person cannot see a difference of
 * this much in streaming text, while an agent's next chunks (or its turn's end) often follow
 * within it. A turn's end, a request and a sub-agent's work are recorded at once, never held.
 */
const HOLD_MS = 25;

/**
 * Commands nobody sees until the turn's next append: the turn's link to the provider's frame
 * that started it (E18). Held alone, they wait for the next append instead of taking a commit
 * of their own while the agent works.
 */
const QUIET = new Set<Command["type"]>(["RecordProviderTurnFrame"]);

/** Whether `promise` settles within `ms` (at most until the event loop's next turn when ≤ 0). */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer =
      ms > 0 ? setTimeout(() => resolve(false), ms) : setImmediate(() => resolve(false));
    const settled = () => {
      if (ms > 0) clearTimeout(timer as NodeJS.Timeout);
      else clearImmediate(timer as NodeJS.Immediate);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}

/**
 * Turns one provider turn's runtime events into domain commands, in order. App ids for nodes,
 * plans and requests are allocated here (never taken from the adapter, E8); native refs are kept
 * on the entities for correlation.
 */
export class TurnConsumer {
  private readonly nodes = new Map<string, NodeId>();
  /** What each item reported when it started; a completion only adds to it. */
  private readonly startFields = new Map<string, RuntimeItemFields>();
  private readonly plans = new Map<string, { planId: PlanId; nodeId: NodeId }>();
  private readonly requests = new Map<string, RuntimeRequestId>();
  private usage: TokenUsage | null = null;
  /** While `consume` runs: commands held for one append (see there); null when called directly. */
  private batch: Batch | null = null;
  /** B8: the provider's frame that ended the turn, kept on its end. */
  private endFrame: string | undefined;

  constructor(
    private readonly repo: Pick<AggregateRepository, "execute" | "executeBatch">,
    private readonly ids: IdSource,
    private readonly threadId: ThreadId,
    private readonly providerTurnId: ProviderTurnId,
    private readonly providerSessionId: ProviderSessionId,
    private readonly onRequest: (requestId: RuntimeRequestId, live: LiveRequest | null) => void,
    /** Why an interrupted turn stopped when Skein stopped it itself (shutdown), if it did. */
    private readonly stopReason: () => string | null = () => null,
    private readonly failures: FailureHooks = {},
    private readonly children: ChildEvents | null = null,
  ) {}

  /**
   * Consumes the turn's events; resolves with the recorded terminal status. Events that follow
   * one another within HOLD_MS (a burst: an agent's chunks, its item's end, the turn's end) are
   * recorded in one append instead of one each: every append is a commit, and those made while
   * the agent works take the machine from it, while the turn's end is on the person's critical
   * path. The turn's end is appended as soon as it arrives, with whatever is held before it.
   */
  async consume(events: AsyncIterable<RuntimeEvent>): Promise<TurnOutcome> {
    let outcome: TurnOutcome | null = null;
    let completed = false;
    const iterator = events[Symbol.asyncIterator]();
    const batch: Batch = { commands: [], since: null, outcomeAt: null, refusedAt: null };
    this.batch = batch;
    try {
      try {
        for (;;) {
          const next = iterator.next();
          // Observed at once: a flush that fails below leaves it pending.
          next.catch(() => undefined);
          const held = batch.commands.length;
          if (held > 0 && !batch.commands.every((command) => QUIET.has(command.type))) {
            batch.since ??= performance.now();
            const left = batch.since + HOLD_MS - performance.now();
            if (held >= MAX_BATCH || !(await settlesWithin(next, left))) await this.flush();
          }
          const step = await next;
          if (step.done) break;
          const done = await this.apply(step.value);
          if (done) {
            outcome = done;
            batch.outcomeAt = batch.commands.length;
          }
        }
        // The usual end: the turn's end goes in the same append as the events held before it.
        if (outcome && outcome.status !== "failed" && !this.children?.hasOpen()) {
          await this.complete(outcome);
          completed = true;
        }
      } catch (error) {
        // Not awaited: a generator's return() waits behind a pending next() that may never settle.
        void Promise.resolve(iterator.return?.()).catch(() => undefined);
        // The source failed: what it sent before is recorded, as it would have been one by one.
        if (batch.refusedAt === null) await this.flush();
        // A command before the turn's end was refused: the end was never reached.
        else if (batch.outcomeAt !== null && batch.refusedAt < batch.outcomeAt) outcome = null;
        batch.commands = [];
        batch.refusedAt = null;
        // The idle watchdog throws its failure typed; anything else here is unexplained.
        if (!outcome) outcome = { status: "failed", failure: providerFailureOf(error) };
      }
      if (completed) return outcome as TurnOutcome;
      if (!outcome) {
        const failure: ProviderFailure = {
          kind: "runtime_crashed",
          message: "provider runtime ended without finishing the turn",
        };
        outcome = { status: "failed", failure };
      }
      await this.flush();
      await this.children?.closeAll();
      if (outcome.status === "failed") await this.failures.before?.(outcome.failure);
      await this.complete(outcome);
      return outcome;
    } finally {
      this.batch = null;
    }
  }

  private async run(command: Command): Promise<void> {
    if (this.batch) this.batch.commands.push(command);
    else await this.repo.execute(command);
  }

  /**
   * Appends the held commands in one batch. A refused batch wrote nothing; its commands then go
   * one by one, so those before the refused one are recorded and its refusal is thrown, exactly
   * as without batching (`refusedAt` says which one).
   */
  private async flush(): Promise<void> {
    const batch = this.batch;
    if (!batch || batch.commands.length === 0) return;
    const commands = batch.commands;
    batch.commands = [];
    batch.since = null;
    try {
      await this.repo.executeBatch(commands);
      batch.outcomeAt = null;
      return;
    } catch (error) {
      if (!isDomainError(error) || commands.length === 1) {
        batch.refusedAt = 0;
        throw error;
      }
    }
    for (const [index, command] of commands.entries()) {
      try {
        await this.repo.execute(command);
      } catch (error) {
        batch.refusedAt = index;
        throw error;
      }
    }
  }

  /** Records one event; the turn's end comes back as its outcome (recorded by `complete`). */
  async apply(event: RuntimeEvent): Promise<TurnOutcome | null> {
    const threadId = this.threadId;
    const providerTurnId = this.providerTurnId;
    if (event.childThreadRef !== undefined) {
      // A sub-agent's work belongs to its child thread, never to this turn's (T9).
      // Its own thread's commands may name this turn's nodes: those are recorded first.
      await this.flush();
      await this.children?.apply(event, (ref) => this.nodes.get(ref));
      return null;
    }
    switch (event.type) {
      case "turn.started":
        if (event.rawEventId)
          await this.run({
            type: "RecordProviderTurnFrame",
            data: { threadId, providerTurnId, rawEventId: event.rawEventId },
          });
        return null;
      case "item.started": {
        if (event.kind === "user_message") return null;
        await this.startItem(event);
        return null;
      }
      case "item.delta": {
        const nodeId = this.nodes.get(event.itemRef);
        if (nodeId)
          await this.run({
            type: "AppendItemDelta",
            data: { threadId, nodeId, delta: event.delta, ...rawRef(event) },
          });
        return null;
      }
      case "item.completed": {
        if (event.kind === "user_message") return null;
        let nodeId = this.nodes.get(event.itemRef);
        if (!nodeId) nodeId = await this.startItem(event);
        const content = completionContentOf(
          event.kind,
          this.startFields.get(event.itemRef),
          event.fields,
        );
        this.startFields.delete(event.itemRef);
        const status = event.status;
        await this.run({
          type: "CompleteItem",
          data: { threadId, nodeId, status, ...(content ? { content } : {}), ...rawRef(event) },
        });
        return null;
      }
      case "plan.updated": {
        let plan = this.plans.get(event.planRef);
        if (!plan) {
          plan = { planId: this.ids.next("plan"), nodeId: this.ids.next("node") };
          this.plans.set(event.planRef, plan);
        }
        await this.run({
          type: "UpdatePlan",
          data: {
            threadId,
            providerTurnId,
            planId: plan.planId,
            nodeId: plan.nodeId,
            kind: event.kind,
            status: "active",
            ...(event.markdown !== undefined ? { markdown: event.markdown } : {}),
            ...(event.steps
              ? { steps: event.steps.map((s, i) => ({ id: `step-${i + 1}`, ...s })) }
              : {}),
            ...rawRef(event),
          },
        });
        return null;
      }
      case "request.opened": {
        const requestId = this.ids.next("request");
        const parentNodeId = event.itemRef ? this.nodes.get(event.itemRef) : undefined;
        const detail = requestDetail(event);
        await this.run({
          type: "OpenRuntimeRequest",
          data: {
            threadId,
            providerTurnId,
            requestId,
            nodeId: this.ids.next("node"),
            ...(parentNodeId ? { parentNodeId } : {}),
            nativeRequestRef: event.requestRef,
            kind: event.kind,
            providerSessionId: this.providerSessionId,
            title: event.summary || `${event.kind} request`,
            detail,
            ...(event.questions
              ? {
                  questions: event.questions.map((q) => ({
                    id: q.id,
                    header: q.header ?? null,
                    question: q.question,
                    options: (q.options ?? []).map((o) => ({
                      label: o.label,
                      description: o.description ?? null,
                    })),
                    multiSelect: q.multiSelect ?? false,
                  })),
                }
              : {}),
            ...rawRef(event),
          },
        });
        this.requests.set(event.requestRef, requestId);
        // Answerable once it is on record.
        await this.flush();
        this.onRequest(requestId, {
          requestRef: event.requestRef,
          threadId,
          providerSessionId: this.providerSessionId,
        });
        return null;
      }
      case "request.closed": {
        const requestId = this.requests.get(event.requestRef);
        this.requests.delete(event.requestRef);
        // Answered ones are recorded by `request.respond`; a turn's end settles what is left,
        // also what a provider withdraws because Skein itself is stopping (stays listed, E15).
        if (!requestId || !WITHDRAWN.has(event.reason) || this.stopReason() !== null) return null;
        await this.run({
          type: "WithdrawRuntimeRequest",
          data: { threadId, requestId, reason: withdrawnReason(event.reason) },
        });
        await this.flush();
        this.onRequest(requestId, null);
        return null;
      }
      case "usage":
        this.usage = usageOf(event);
        return null;
      case "subagent.started":
      case "subagent.completed":
      case "model.retrying": // shown on the run by the executor's reach watch (B15)
        return null;
      case "turn.completed":
        this.endFrame = event.rawEventId;
        return event.status === "failed"
          ? {
              status: "failed",
              failure: event.failure ?? unexplainedFailure(event.error || "provider turn failed"),
            }
          : { status: event.status };
    }
  }

  private async startItem(
    event: Extract<RuntimeEvent, { type: "item.started" | "item.completed" }>,
  ): Promise<NodeId> {
    const { itemRef, kind, fields } = event;
    const nodeId = this.ids.next("node");
    this.nodes.set(itemRef, nodeId);
    this.startFields.set(itemRef, fields);
    const parentNodeId = event.parentItemRef ? this.nodes.get(event.parentItemRef) : undefined;
    const content = contentOf(kind, fields);
    const summary = (kind === "hook" || kind === "notice") && fields.summary?.slice(0, 2_000);
    await this.run({
      type: "StartItem",
      data: {
        threadId: this.threadId,
        providerTurnId: this.providerTurnId,
        nodeId,
        kind: nodeKindOf(kind),
        ...(parentNodeId ? { parentNodeId } : {}),
        nativeItemRef: itemRef,
        nativeRefStrength: event.refStrength ?? "strong",
        ...(summary ? { summary } : {}),
        ...(content ? { content } : {}),
        ...rawRef(event),
      },
    });
    return nodeId;
  }

  /** Records the turn's end (and so its run's, for a run's only turn). */
  async complete(outcome: TurnOutcome): Promise<void> {
    await this.run({
      type: "CompleteProviderTurn",
      data: {
        threadId: this.threadId,
        providerTurnId: this.providerTurnId,
        status: outcome.status,
        error:
          outcome.status === "failed"
            ? (this.failures.describe?.(outcome.failure) ?? outcome.failure.message)
            : outcome.status === "interrupted"
              ? this.stopReason()
              : null,
        usage: this.usage,
        ...rawRef({ rawEventId: this.endFrame }),
        ...this.limitOf(outcome),
      },
    });
    await this.flush();
  }

  private limitOf(outcome: TurnOutcome): { usageLimit?: UsageLimitHit } {
    const usageLimit = outcome.status === "failed" ? this.failures.usageLimit?.() : undefined;
    return usageLimit ? { usageLimit } : {};
  }
}

/**
 * B8: the raw frame an event came from, for the command it becomes, so the item keeps where its
 * frames are and the store links the frame to the sequence it led to.
 */
function rawRef(event: { rawEventId?: string | undefined }): { rawEventId?: string } {
  return event.rawEventId ? { rawEventId: event.rawEventId } : {};
}

/** The event's figures as TokenUsage, leaving out what the provider did not report. */
function usageOf(event: Extract<RuntimeEvent, { type: "usage" }>): TokenUsage {
  const { inputTokens, outputTokens, cachedInputTokens, reasoningTokens, costUsd } = event;
  const { contextTokens, contextWindow } = event;
  return {
    inputTokens,
    outputTokens,
    ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}),
    ...(reasoningTokens !== undefined ? { reasoningTokens } : {}),
    ...(costUsd !== undefined ? { costUsd } : {}),
    ...(contextTokens !== undefined ? { contextTokens } : {}),
    ...(contextWindow !== undefined ? { contextWindow } : {}),
  };
}
