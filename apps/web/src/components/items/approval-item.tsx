import { words } from "../../lib/format.ts";
import type { PendingRequest, TurnItemOf } from "../../lib/types.ts";
import { ApprovalDetail } from "../approvals/approval-detail.tsx";
import { RequestActions } from "../approvals/request-actions.tsx";

const DECISION_LABEL: Record<NonNullable<TurnItemOf<"approval_request">["decision"]>, string> = {
  accept: "Accepted",
  accept_for_session: "Accepted for this session",
  decline: "Declined",
  cancel: "Cancelled",
};

/** An approval or question in the conversation; answerable inline while it is pending. */
export function ApprovalView({
  item,
  pending,
}: {
  item: TurnItemOf<"approval_request">;
  pending: PendingRequest | undefined;
}) {
  // B16: the agent stands still until this is answered, and the card says so.
  const waiting = item.decision === null && pending !== undefined && pending.answerable !== false;
  return (
    <div
      className="approval"
      data-request-id={item.requestId}
      data-waiting={waiting ? "true" : undefined}
    >
      <div className="item-label">
        {item.requestKind === "user_input" ? "Question" : `Approval · ${words(item.requestKind)}`}
        {waiting && (
          <span className="badge badge-waiting" role="status">
            Waiting for you
          </span>
        )}
      </div>
      <div className="approval-title">{item.title}</div>
      <ApprovalDetail threadId={item.threadId} detail={item.detail} />
      {item.decision !== null ? (
        <p className={item.decision.startsWith("accept") ? "ok" : "warn"}>
          {DECISION_LABEL[item.decision]}
        </p>
      ) : pending ? (
        <RequestActions request={pending} />
      ) : (
        item.status !== "pending" && <p className="muted">{words(item.status)} without an answer</p>
      )}
    </div>
  );
}
