import type { NotificationEnvelope } from "../rpc/app-server-client.ts";

/** Sub-agents spawn sub-agents; a chain longer than this is treated as broken. */
const MAX_DEPTH = 16;

/**
 * Which native thread spawned which: Codex sub-agents (multi-agent collaboration) run on threads of
 * their own, and their approvals arrive under the child's thread id. Learned from the parent's
 * `subAgentActivity` / `collabAgentToolCall` items and from `thread/started` (`parentThreadId`), so
 * a child's request can be asked on the turn of the app thread that owns the tree.
 */
export class SubAgentLineage {
  private readonly parentOf = new Map<string, string>();

  observe(n: NotificationEnvelope): void {
    if (n.method === "thread/started") {
      const { thread } = n.params;
      if (thread.parentThreadId) this.link(thread.id, thread.parentThreadId);
      return;
    }
    if (n.method !== "item/started" && n.method !== "item/completed") return;
    const { item } = n.params;
    if (item.type === "subAgentActivity") this.link(item.agentThreadId, n.params.threadId);
    if (item.type === "collabAgentToolCall") {
      for (const child of item.receiverThreadIds) this.link(child, item.senderThreadId);
    }
  }

  link(child: string, parent: string): void {
    if (child !== parent) this.parentOf.set(child, parent);
  }

  /** The thread itself, then its parent, grandparent, … (bounded, cycle-safe). */
  *ancestry(threadId: string): Generator<string> {
    const seen = new Set<string>();
    let current: string | undefined = threadId;
    while (current !== undefined && !seen.has(current) && seen.size < MAX_DEPTH) {
      seen.add(current);
      yield current;
      current = this.parentOf.get(current);
    }
  }
}
