import type { NotificationEnvelope } from "../rpc/app-server-client.ts";

/** Something Codex said about itself, not about a turn: a warning, a deprecation. */
export type RuntimeNotice = { summary: string; rawEventId: string | null };

/**
 * E5: Codex's notices (`deprecationNotice`, `warning`) become `system` nodes. They come when a
 * thread is started or resumed, before any turn of it runs, and carry no id; so they are held
 * here until the next turn starts (of their thread, or of any thread for the server-wide ones)
 * and become that turn's nodes, each once.
 */
export class RuntimeNotices {
  private readonly held: Array<RuntimeNotice & { threadRef: string | null }> = [];

  /** The notice a notification is, if it is one (with the thread it names, if any). */
  static of(n: NotificationEnvelope): (RuntimeNotice & { threadRef: string | null }) | null {
    const rawEventId = n.rawEventId;
    if (n.method === "deprecationNotice") {
      const { summary, details } = n.params;
      return { summary: details ? `${summary} ${details}` : summary, rawEventId, threadRef: null };
    }
    if (n.method === "warning") {
      return { summary: n.params.message, rawEventId, threadRef: n.params.threadId };
    }
    return null;
  }

  hold(notice: RuntimeNotice & { threadRef: string | null }): void {
    this.held.push(notice);
  }

  /** The notices for a turn starting on `threadRef`: its thread's and the server-wide ones. */
  take(threadRef: string): RuntimeNotice[] {
    const taken: RuntimeNotice[] = [];
    for (let i = 0; i < this.held.length; ) {
      const notice = this.held[i]!;
      if (notice.threadRef === null || notice.threadRef === threadRef) {
        taken.push({ summary: notice.summary, rawEventId: notice.rawEventId });
        this.held.splice(i, 1);
      } else i += 1;
    }
    return taken;
  }
}
