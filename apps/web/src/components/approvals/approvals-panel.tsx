"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { shortTime, words } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { usePendingRequests } from "../../lib/use-pending-requests.ts";
import { NotificationSettings } from "../pwa/notification-settings.tsx";
import { ApprovalDetail } from "./approval-detail.tsx";
import { RequestActions } from "./request-actions.tsx";

/** Every request waiting on a person, across threads, oldest first within each thread. */
export function ApprovalsPanel() {
  const { groups, error } = usePendingRequests();
  const { refreshThread } = useShells();
  const total = groups.reduce((sum, group) => sum + group.requests.length, 0);
  // B20: a notification opens `?request=<id>`: that request is brought into view and marked.
  const [focused, setFocused] = useState<string | null>(null);
  useEffect(() => setFocused(new URLSearchParams(window.location.search).get("request")), []);
  const focusedShown = groups.some((group) => group.requests.some((r) => r.id === focused));
  useEffect(() => {
    if (focused === null || !focusedShown) return;
    document
      .querySelector(`[data-request-id="${CSS.escape(focused)}"]`)
      ?.scrollIntoView({ block: "center" });
  }, [focused, focusedShown]);
  return (
    <div className="page approvals">
      <h1>Approvals</h1>
      <p className="muted">
        {total === 0 ? "Nothing is waiting for you." : `${total} waiting for an answer.`}
      </p>
      <NotificationSettings />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {groups.map(({ thread, requests }) => (
        <section key={thread.id} className="panel" aria-label={`Requests in ${thread.title}`}>
          <h2>
            <Link href={`/threads/${thread.id}`}>{thread.title}</Link>
          </h2>
          <ul className="plain-list">
            {requests.map((request) => (
              <li
                key={request.id}
                className={`request-card${request.id === focused ? " focused" : ""}`}
                data-request-id={request.id}
              >
                <div className="item-label">
                  {words(request.kind)} · {shortTime(request.createdAt)}
                </div>
                <div className="approval-title">{request.title}</div>
                <ApprovalDetail threadId={thread.id} detail={request.detail} />
                <RequestActions request={request} onAnswered={() => refreshThread(thread.id)} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
