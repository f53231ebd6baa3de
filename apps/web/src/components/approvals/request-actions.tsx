"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import type { PendingRequest, RequestDecision } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

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
  const [answers, setAnswers] = useState<Record<string, string>>({});

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
        ...(request.kind === "user_input" ? answersOf(request, answers, answer) : {}),
      });
      onAnswered?.();
    });

  return (
    <div className="request-actions">
      {request.kind === "user_input" &&
        request.questions.map((question) => (
          <QuestionField
            key={question.id}
            question={question}
            value={answers[question.id] ?? ""}
            onChange={(value) => setAnswers((all) => ({ ...all, [question.id]: value }))}
          />
        ))}
      {request.kind === "user_input" && request.questions.length === 0 && (
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
      <ActionError error={action.failure} />
    </div>
  );
}

type Question = PendingRequest["questions"][number];

/** Answers keyed by question id, as the provider asked; a request without questions gets one. */
function answersOf(
  request: PendingRequest,
  byQuestion: Record<string, string>,
  single: string,
): { answers?: Record<string, string> } {
  if (request.questions.length === 0) {
    return single.trim() === "" ? {} : { answers: { answer: single.trim() } };
  }
  const answers: Record<string, string> = {};
  for (const question of request.questions) {
    const value = (byQuestion[question.id] ?? "").trim();
    if (value !== "") answers[question.id] = value;
  }
  return Object.keys(answers).length === 0 ? {} : { answers };
}

/** One question: its options as one-click choices, and free text for any other answer. */
function QuestionField({
  question,
  value,
  onChange,
}: {
  question: Question;
  value: string;
  onChange: (value: string) => void;
}) {
  const label = question.header ? `${question.header}: ${question.question}` : question.question;
  return (
    <fieldset className="question-field">
      <legend>{label}</legend>
      {question.options.length > 0 && (
        <div className="row">
          {question.options.map((option) => (
            <button
              key={option.label}
              type="button"
              aria-pressed={value === option.label}
              aria-label={`Choose ${option.label} for ${question.question}`}
              title={option.description ?? undefined}
              onClick={() => onChange(option.label)}
            >
              {option.label}
            </button>
          ))}
        </div>
      )}
      <input aria-label={label} value={value} onChange={(event) => onChange(event.target.value)} />
    </fieldset>
  );
}
