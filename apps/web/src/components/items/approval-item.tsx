import { words } from "../../lib/format.ts";
import type { PendingRequest, TurnItemOf } from "../../lib/types.ts";
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
  return (
    <div className="approval" data-request-id={item.requestId}>
      <div className="item-label">
        {item.requestKind === "user_input" ? "Question" : `Approval · ${words(item.requestKind)}`}
      </div>
      <div className="approval-title">{item.title}</div>
      {item.detail && <pre className="approval-detail">{item.detail}</pre>}
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
