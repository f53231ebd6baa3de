import type { TurnItem } from "../../entities/turn-item.ts";
import type { EventData } from "../../events.ts";
import {
  addItem,
  finishNode,
  patchSubjectItem,
  putMessage,
  putNode,
  putPlan,
  touchShell,
  withItemStatus,
} from "../mutations.ts";
import type { ThreadState } from "../thread-state.ts";
import { withLaterFrame } from "../../thread/raw-frames.ts";
import { withItemDelta } from "../../projections/item-delta.ts";

export function onItemStarted(s: ThreadState, d: EventData<"ItemStarted">): void {
  putNode(s, d.node);
  const parent = d.node.parentNodeId ? s.nodes.get(d.node.parentNodeId) : undefined;
  if (parent && (parent.kind === "subagent" || s.hiddenNodeIds.has(parent.id))) {
    s.hiddenNodeIds.add(d.node.id);
  }
  if (d.message) putMessage(s, d.message);
  if (d.item) addItem(s, d.item, d.node.id);
  touchShell(s, d.at);
}

/** Deltas touch the message and item only; the shell is not rewritten per chunk. */
export function onItemDeltaAppended(s: ThreadState, d: EventData<"ItemDeltaAppended">): void {
  const messageId = s.messageByNode.get(d.nodeId);
  const message = messageId ? s.messages.get(messageId) : undefined;
  if (message) putMessage(s, { ...message, text: message.text + d.delta, updatedAt: d.at });
  patchSubjectItem(s, d.nodeId, (item) => withItemDelta(item, d));
}

export function onItemCompleted(s: ThreadState, d: EventData<"ItemCompleted">): void {
  const node = s.nodes.get(d.nodeId);
  if (!node) return;
  if (d.rawEventId !== undefined) {
    putNode(s, withLaterFrame(node, d.rawEventId));
    patchSubjectItem(s, d.nodeId, (item) => withLaterFrame(item, d.rawEventId));
  }
  const content = d.content;
  if (content) {
    patchSubjectItem(s, d.nodeId, (item) => {
      // `type` is checked equal by decide; the spread replaces the variant fields.
      const merged = { ...item, ...content } as TurnItem;
      return withItemStatus(merged, d.status, d.at);
    });
    const messageId = s.messageByNode.get(d.nodeId);
    const message = messageId ? s.messages.get(messageId) : undefined;
    if (message && content.type === "assistant_message") {
      putMessage(s, { ...message, text: content.text, updatedAt: d.at });
    }
  }
  const nodeStatus = d.status === "declined" ? "cancelled" : d.status;
  finishNode(s, d.nodeId, nodeStatus, d.status, d.at);
  touchShell(s, d.at);
}

export function onPlanUpdated(s: ThreadState, d: EventData<"PlanUpdated">): void {
  const plan = d.plan;
  putPlan(s, plan);
  const planNode = d.node ?? s.nodes.get(plan.nodeId);
  if (d.node) putNode(s, d.node);
  else if (planNode && d.rawEventId !== undefined)
    putNode(s, withLaterFrame(planNode, d.rawEventId));
  if (d.item) {
    addItem(s, d.item, plan.id);
  } else {
    patchSubjectItem(s, plan.id, (item) =>
      item.type === "plan"
        ? {
            ...withLaterFrame(item, d.rawEventId),
            planStatus: plan.status,
            markdown: plan.markdown,
            steps: plan.steps,
            updatedAt: d.at,
          }
        : item,
    );
  }
  if (plan.status === "completed" || plan.status === "superseded" || plan.status === "accepted") {
    finishNode(s, plan.nodeId, "completed", "completed", d.at);
  }
  touchShell(s, d.at);
}
