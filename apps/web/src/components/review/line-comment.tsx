"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

export type LineTarget = { path: string; line: number | null; diffHunk: string; key: string };

/**
 * B17 in Review: a comment on one diff line, sent to the thread's agent as a message with the
 * file, line and hunk. The command id is fixed when the box opens, so a double click or a retry
 * after a lost answer sends one message.
 */
export function LineComment({
  threadId,
  target,
  onClose,
  onSent,
}: {
  threadId: string;
  target: LineTarget;
  onClose: () => void;
  onSent: (runId: string) => void;
}) {
  const client = useApi();
  const action = useAction();
  const [body, setBody] = useState("");
  const [commandId] = useState(() => `cmd_rc_${crypto.randomUUID().replaceAll("-", "")}`);
  const where = target.line === null ? target.path : `${target.path}:${target.line}`;
  const send = () =>
    void action.run(async () => {
      const sent = await client.review.comment.mutate({
        threadId: threadId as never,
        path: target.path,
        line: target.line,
        diffHunk: target.diffHunk,
        body,
        commandId,
      });
      onSent(sent.runId);
    });
  return (
    <form
      className="review-line-comment"
      aria-label={`Comment on ${where}`}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label>
        <span className="sr-only">Comment on {where}</span>
        <textarea
          value={body}
          onChange={(event) => setBody(event.target.value)}
          placeholder={`What should the agent change at ${where}?`}
          rows={3}
          maxLength={10_000}
          // biome-ignore lint/a11y/noAutofocus: the box opens because the person asked to write here.
          autoFocus
        />
      </label>
      <div className="row">
        <button type="submit" disabled={action.pending || body.trim().length === 0}>
          Send to the agent
        </button>
        <button type="button" onClick={onClose} disabled={action.pending}>
          Cancel
        </button>
      </div>
      <ActionError error={action.failure} prefix="The comment was not sent." />
    </form>
  );
}
