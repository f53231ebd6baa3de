import type {
  IdSource,
  NodeId,
  PlanId,
  ProviderSessionId,
  ProviderTurnId,
  RuntimeRequestId,
  ThreadId,
  TokenUsage,
} from "@skein/domain";
import type { RuntimeEvent, RuntimeItemFields } from "@skein/domain/provider";
import type { AggregateRepository } from "./aggregate-repository.ts";
import { completionContentOf, contentOf, nodeKindOf } from "./item-content.ts";

export type TurnOutcome = { status: "completed" | "interrupted" | "failed"; error: string | null };

/** Where an open request can be answered: the live runtime that asked it. */
export type LiveRequest = {
  requestRef: string;
  threadId: ThreadId;
  providerSessionId: ProviderSessionId;
};

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
  private usage: TokenUsage | null = null;

  constructor(
    private readonly repo: Pick<AggregateRepository, "execute">,
    private readonly ids: IdSource,
    private readonly threadId: ThreadId,
    private readonly providerTurnId: ProviderTurnId,
    private readonly providerSessionId: ProviderSessionId,
    private readonly onRequest: (requestId: RuntimeRequestId, live: LiveRequest | null) => void,
  ) {}

  /** Consumes the turn's events; resolves with the recorded terminal status. */
  async consume(events: AsyncIterable<RuntimeEvent>): Promise<TurnOutcome> {
    let outcome: TurnOutcome | null = null;
    try {
      for await (const event of events) {
        const done = await this.apply(event);
        if (done) outcome = done;
      }
    } catch (error) {
      if (!outcome)
        outcome = {
          status: "failed",
          error: error instanceof Error ? error.message : String(error),
        };
    }
    if (!outcome) {
      outcome = { status: "failed", error: "provider runtime ended without finishing the turn" };
    }
    await this.complete(outcome);
    return outcome;
  }

  private async run(command: Parameters<AggregateRepository["execute"]>[0]): Promise<void> {
    await this.repo.execute(command);
  }

  private async apply(event: RuntimeEvent): Promise<TurnOutcome | null> {
    const threadId = this.threadId;
    const providerTurnId = this.providerTurnId;
    switch (event.type) {
      case "turn.started":
        return null;
      case "item.started": {
        if (event.kind === "user_message") return null;
        await this.startItem(event.itemRef, event.kind, event.parentItemRef ?? null, event.fields);
        return null;
      }
      case "item.delta": {
        const nodeId = this.nodes.get(event.itemRef);
        if (nodeId)
          await this.run({
            type: "AppendItemDelta",
            data: { threadId, nodeId, delta: event.delta },
          });
        return null;
      }
      case "item.completed": {
        if (event.kind === "user_message") return null;
        let nodeId = this.nodes.get(event.itemRef);
        if (!nodeId)
          nodeId = await this.startItem(
            event.itemRef,
            event.kind,
            event.parentItemRef ?? null,
            event.fields,
          );
        const content = completionContentOf(
          event.kind,
          this.startFields.get(event.itemRef),
          event.fields,
        );
        this.startFields.delete(event.itemRef);
        const status = event.status;
        await this.run({
          type: "CompleteItem",
          data: { threadId, nodeId, status, ...(content ? { content } : {}) },
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
          },
        });
        return null;
      }
      case "request.opened": {
        const requestId = this.ids.next("request");
        const parentNodeId = event.itemRef ? this.nodes.get(event.itemRef) : undefined;
        const detail = [event.command, event.cwd ? `in ${event.cwd}` : null, event.toolName]
          .filter(Boolean)
          .join(" ");
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
            detail: detail || null,
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
          },
        });
        this.onRequest(requestId, {
          requestRef: event.requestRef,
          threadId,
          providerSessionId: this.providerSessionId,
        });
        return null;
      }
      case "request.closed":
        return null;
      case "usage":
        this.usage = {
          inputTokens: event.inputTokens,
          outputTokens: event.outputTokens,
          ...(event.cachedInputTokens !== undefined
            ? { cachedInputTokens: event.cachedInputTokens }
            : {}),
        };
        return null;
      case "turn.completed":
        return { status: event.status, error: event.error ?? null };
    }
  }

  private async startItem(
    itemRef: string,
    kind: Parameters<typeof nodeKindOf>[0],
    parentItemRef: string | null,
    fields: Parameters<typeof contentOf>[1],
  ): Promise<NodeId> {
    const nodeId = this.ids.next("node");
    this.nodes.set(itemRef, nodeId);
    this.startFields.set(itemRef, fields);
    const parentNodeId = parentItemRef ? this.nodes.get(parentItemRef) : undefined;
    const content = contentOf(kind, fields);
    await this.run({
      type: "StartItem",
      data: {
        threadId: this.threadId,
        providerTurnId: this.providerTurnId,
        nodeId,
        kind: nodeKindOf(kind),
        ...(parentNodeId ? { parentNodeId } : {}),
        nativeItemRef: itemRef,
        ...(content ? { content } : {}),
      },
    });
    return nodeId;
  }

  private async complete(outcome: TurnOutcome): Promise<void> {
    await this.run({
      type: "CompleteProviderTurn",
      data: {
        threadId: this.threadId,
        providerTurnId: this.providerTurnId,
        status: outcome.status,
        error: outcome.status === "failed" ? outcome.error || "provider turn failed" : null,
        usage: this.usage,
      },
    });
  }
}
