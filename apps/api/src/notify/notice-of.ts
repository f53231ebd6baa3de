import type { NoticeKind } from "@skein/contract";
import type { StoredEvent } from "@skein/domain";

/** What a notification says: the thread's title and what happened, nothing of the work itself. */
export type Notice = {
  /** The event it is about: a delivery is recorded once per (key, target). */
  key: string;
  kind: NoticeKind;
  threadId: string;
  /** Where a click opens: the exact request, or the thread. */
  path: string;
  requestId: string | null;
};

const WORDS: Record<NoticeKind, string> = {
  approval: "needs your approval",
  question: "has a question for you",
  finished: "finished",
  failed: "failed",
};

/** The one line a notification shows: the thread's title (bounded) and the kind in words. */
export function noticeText(kind: NoticeKind, threadTitle: string): { title: string; body: string } {
  const title = threadTitle.length > 80 ? `${threadTitle.slice(0, 79)}…` : threadTitle;
  return { title, body: `The agent ${WORDS[kind]}.` };
}

type RequestData = { request?: { id?: string; threadId?: string; kind?: string } };
type FinishData = { runId?: string; status?: string };

/**
 * B20: the events a person is told about. A request the agent opened (a question when it asks
 * for input, else an approval) and a run that finished or failed; an interrupted run was the
 * person's own doing. The request's own text (a command, a path) is never carried.
 */
export function noticeOf(event: StoredEvent): Notice | null {
  if (!event.streamId.startsWith("thread-")) return null;
  const threadId = event.streamId.slice("thread-".length);
  const key = `event-${event.sequence}`;
  if (event.type === "RuntimeRequestOpened") {
    const request = (event.data as RequestData).request;
    if (!request?.id || request.kind === "auth_refresh") return null;
    const kind: NoticeKind = request.kind === "user_input" ? "question" : "approval";
    const path = `/approvals?request=${encodeURIComponent(request.id)}`;
    return { key, kind, threadId, path, requestId: request.id };
  }
  if (event.type === "RunFinished") {
    const { status } = event.data as FinishData;
    if (status !== "completed" && status !== "failed") return null;
    const kind: NoticeKind = status === "completed" ? "finished" : "failed";
    return {
      key,
      kind,
      threadId,
      path: `/threads/${encodeURIComponent(threadId)}`,
      requestId: null,
    };
  }
  return null;
}
