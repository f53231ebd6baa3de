import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type {
  EventData,
  RunId,
  RuntimeRequest,
  StoredEvent,
  TurnItem,
  UserInputQuestion,
} from "@skein/domain";
import { isToolItem, planUpdateOf, textChunk, toolCallOf, toolEndOf } from "./item-updates.ts";

/**
 * One run's events, as the thread's watch delivers them, turned into ACP session updates: the
 * message streams as it is written, tools start and end, plans update. Events of other runs (a
 * sub-agent's, another client's) give nothing. Pure over the events it is fed.
 */

export type RunEnd = {
  status: "completed" | "interrupted" | "failed" | "cancelled";
  error: string | null;
};

export type RunStep = {
  updates: SessionUpdate[];
  /** A request the run now waits on (an approval, a question): the client is asked. */
  request: { request: RuntimeRequest; questions: UserInputQuestion[] } | null;
  /** Set once the run has ended. */
  end: RunEnd | null;
};

type Followed = { kind: "message" | "thought" | "tool"; item: TurnItem; sent: number };

/** The event's data as its type says (the watch hands events over untyped). */
function dataOf<T extends keyof Handled>(event: StoredEvent, _type: T): EventData<T> {
  return event.data as EventData<T>;
}

type Handled = Record<
  | "ItemStarted"
  | "ItemDeltaAppended"
  | "ItemCompleted"
  | "PlanUpdated"
  | "RuntimeRequestOpened"
  | "RunFinished"
  | "RunCancelled",
  true
>;

const NOTHING: RunStep = { updates: [], request: null, end: null };

export class RunUpdates {
  private readonly nodes = new Map<string, Followed>();

  constructor(readonly runId: RunId) {}

  apply(event: StoredEvent): RunStep {
    switch (event.type) {
      case "ItemStarted":
        return this.started(dataOf(event, "ItemStarted"));
      case "ItemDeltaAppended":
        return this.delta(dataOf(event, "ItemDeltaAppended"));
      case "ItemCompleted":
        return this.completed(dataOf(event, "ItemCompleted"));
      case "PlanUpdated": {
        const { plan } = dataOf(event, "PlanUpdated");
        const update = plan.runId === this.runId ? planUpdateOf(plan) : null;
        return update ? { ...NOTHING, updates: [update] } : NOTHING;
      }
      case "RuntimeRequestOpened": {
        const { request, plan } = dataOf(event, "RuntimeRequestOpened");
        if (request.runId !== this.runId) return NOTHING;
        return { ...NOTHING, request: { request, questions: plan?.questions ?? [] } };
      }
      case "RunFinished": {
        const { runId, status, error } = dataOf(event, "RunFinished");
        return runId === this.runId ? { ...NOTHING, end: { status, error } } : NOTHING;
      }
      case "RunCancelled": {
        const { runId } = dataOf(event, "RunCancelled");
        return runId === this.runId
          ? { ...NOTHING, end: { status: "cancelled", error: null } }
          : NOTHING;
      }
      default:
        return NOTHING;
    }
  }

  private started({ node, item }: EventData<"ItemStarted">): RunStep {
    if (node.runId !== this.runId || item === null) return NOTHING;
    if (item.type === "assistant_message" || item.type === "reasoning") {
      const kind = item.type === "assistant_message" ? "message" : "thought";
      this.nodes.set(node.id, { kind, item, sent: item.text.length });
      return item.text ? { ...NOTHING, updates: [this.chunk(kind, item.text)] } : NOTHING;
    }
    if (isToolItem(item)) {
      this.nodes.set(node.id, { kind: "tool", item, sent: 0 });
      return { ...NOTHING, updates: [toolCallOf(item)] };
    }
    return NOTHING;
  }

  private delta({ nodeId, delta }: EventData<"ItemDeltaAppended">): RunStep {
    const followed = this.nodes.get(nodeId);
    // Tool output is sent once, when the tool ends.
    if (!followed || followed.kind === "tool" || delta === "") return NOTHING;
    followed.sent += delta.length;
    return { ...NOTHING, updates: [this.chunk(followed.kind, delta)] };
  }

  private completed({ nodeId, status, content }: EventData<"ItemCompleted">): RunStep {
    const followed = this.nodes.get(nodeId);
    if (!followed) return NOTHING;
    this.nodes.delete(nodeId);
    const item = { ...followed.item, ...(content ?? {}), status } as TurnItem;
    if (followed.kind === "tool") {
      return isToolItem(item) ? { ...NOTHING, updates: [toolEndOf(item)] } : NOTHING;
    }
    // A provider that did not stream the text (or not all of it) says the rest at the end.
    const text = "text" in item && typeof item.text === "string" ? item.text : "";
    const rest = text.slice(followed.sent);
    return rest ? { ...NOTHING, updates: [this.chunk(followed.kind, rest)] } : NOTHING;
  }

  private chunk(kind: "message" | "thought", text: string): SessionUpdate {
    return textChunk(kind === "message" ? "agent_message_chunk" : "agent_thought_chunk", text);
  }
}
