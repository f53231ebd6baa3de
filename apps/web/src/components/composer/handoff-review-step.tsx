"use client";
import { useId } from "react";
import type { HandoffPayload } from "@skein/domain";
import { words } from "../../lib/format.ts";
import { HandoffOverview } from "../handoffs/handoff-overview.tsx";
import "./handoff-review.css";

export type HandoffDraftView = {
  /** What Skein generated (or the transfer's saved preview). */
  generated: string;
  /** What will be sent: the generated text, or the person's edit of it. */
  text: string;
  transferType: string;
  strategy: string;
  /** Issue 25: sections, budget used, what was left out. */
  payload?: HandoffPayload;
};

/**
 * The composer's "review handoff before sending" step: the context a provider switch or a
 * bring-back will carry, editable, regenerable, sent only on confirmation.
 */
export function HandoffReviewStep({
  draft,
  pending,
  onChange,
  onRegenerate,
  onSend,
  onBack,
}: {
  draft: HandoffDraftView;
  pending: boolean;
  onChange(text: string): void;
  onRegenerate(): void;
  onSend(): void;
  onBack(): void;
}) {
  const id = useId();
  const edited = draft.text !== draft.generated;
  return (
    <section className="handoff-review" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Review the handoff before sending</h3>
      <p className="muted">
        This message starts a {words(draft.transferType)}: the provider receives this context (
        {words(draft.strategy)}
        {edited ? ", edited by you: sent as manual context" : ""}) before your message.
      </p>
      {draft.payload && <HandoffOverview payload={draft.payload} />}
      <textarea
        aria-label="Handoff text to send"
        value={draft.text}
        rows={10}
        onChange={(event) => onChange(event.target.value)}
      />
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={onSend}
          disabled={pending || !draft.text.trim()}
        >
          {pending ? "Sending…" : "Send with this handoff"}
        </button>
        <button type="button" onClick={onRegenerate} disabled={pending}>
          Regenerate
        </button>
        <button type="button" onClick={onBack} disabled={pending}>
          Back to the message
        </button>
      </div>
    </section>
  );
}
