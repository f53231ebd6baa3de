"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import type { PendingRequest, RequestDecision } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";

/**
 * Accept / decline (and answer, for user-input requests) one pending request. A request whose
 * runtime is gone (after a restart) stays visible but says why it cannot be answered (E15).
 */
export function RequestActions({
  request,
  onAnswered,
}: {
  request: PendingRequest;
  onAnswered?: () => void;
}) {
  const client = useApi();
  const action = useAction();
  const [answer, setAnswer] = useState("");

  if (!request.answerable) {
    const reason =
      request.responseCapability.type === "not_resumable"
        ? request.responseCapability.reason
        : "its provider runtime is no longer live";
    return (
      <p className="warn" role="note">
        Can no longer be answered: {reason}
      </p>
    );
  }

  const respond = (decision: RequestDecision) =>
    void action.run(async () => {
      await client.request.respond.mutate({
        requestId: request.id,
        decision,
        ...(request.kind === "user_input" && answer.trim() !== ""
          ? { answers: { answer: answer.trim() } }
          : {}),
      });
      onAnswered?.();
    });

  return (
    <div className="request-actions">
      {request.kind === "user_input" && (
        <textarea
          aria-label={`Answer to ${request.title}`}
          value={answer}
          rows={2}
          onChange={(event) => setAnswer(event.target.value)}
        />
      )}
      <div className="row">
        <button
          type="button"
          className="primary"
          disabled={action.pending}
          onClick={() => respond("accept")}
          aria-label={`${request.kind === "user_input" ? "Answer" : "Accept"}: ${request.title}`}
        >
          {request.kind === "user_input" ? "Answer" : "Accept"}
        </button>
        {request.kind !== "user_input" && (
          <button
            type="button"
            disabled={action.pending}
            onClick={() => respond("accept_for_session")}
            aria-label={`Accept for session: ${request.title}`}
          >
            Accept for session
          </button>
        )}
        <button
          type="button"
          disabled={action.pending}
          onClick={() => respond("decline")}
          aria-label={`Decline: ${request.title}`}
        >
          Decline
        </button>
      </div>
      {action.error && (
        <p className="error" role="alert">
          {action.error}
        </p>
      )}
    </div>
  );
}
