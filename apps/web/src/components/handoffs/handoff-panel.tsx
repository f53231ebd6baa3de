"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { ordinalRange, PROVIDER_LABEL, shortId, shortTime, words } from "../../lib/format.ts";
import type { Transfer, TransferView } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { JsonView } from "../common/json-view.tsx";

const FINAL_STATUSES = new Set(["consumed", "superseded", "failed"]);

/**
 * The handoff in effect for a transfer: strategy, coverage and the exact text the target got,
 * plus regenerate / edit (`manual_context`) while the transfer has not been consumed.
 */
export function HandoffPanel({
  transfer,
  view,
  onChanged,
}: {
  transfer: Transfer;
  view: TransferView;
  onChanged(): void;
}) {
  const client = useApi();
  const action = useAction();
  const [draft, setDraft] = useState<string | null>(null);
  const handoff = view.handoff;

  if (handoff === null) {
    return (
      <p className="muted">
        No handoff text yet:{" "}
        {transfer.resolution?.strategy === "native_fork"
          ? "the provider forked natively, so no summary was needed."
          : "it is built when the target thread's next run starts."}
      </p>
    );
  }

  const locked = FINAL_STATUSES.has(transfer.status);
  const lockReason = locked
    ? `The transfer is ${words(transfer.status)}: the target already received this text.`
    : null;
  const regenerate = () =>
    void action.run(async () => {
      await client.handoff.regenerate.mutate({ transferId: transfer.id });
      onChanged();
    });
  const save = () =>
    void action.run(async () => {
      if (draft === null || draft.trim() === "") return;
      await client.handoff.edit.mutate({ transferId: transfer.id, text: draft });
      setDraft(null);
      onChanged();
    });

  return (
    <div className="handoff" data-handoff-id={handoff.id}>
      <dl className="facts">
        <dt>Handoff</dt>
        <dd>
          {words(handoff.kind)} · <strong>{words(handoff.strategy)}</strong> ·{" "}
          <span className={`badge status-${handoff.status}`}>{handoff.status}</span>
        </dd>
        <dt>Covered runs</dt>
        <dd>{ordinalRange(handoff.coveredRunOrdinals)}</dd>
        <dt>Provider threads</dt>
        <dd>
          {handoff.fromProviderThreadIds.map(shortId).join(", ") || "none"} →{" "}
          {shortId(handoff.toProviderThreadId)}
          {handoff.createdByProvider && (
            <> · built for {PROVIDER_LABEL[handoff.createdByProvider]}</>
          )}
        </dd>
      </dl>
      {draft === null ? (
        <>
          <h4>Exact text the target received</h4>
          <pre className="handoff-text" data-testid="handoff-text">
            {handoff.summaryText}
          </pre>
          <div className="row">
            <button type="button" disabled={locked || action.pending} onClick={regenerate}>
              Regenerate
            </button>
            <button
              type="button"
              disabled={locked || action.pending}
              onClick={() => setDraft(handoff.summaryText)}
            >
              Edit text
            </button>
            {lockReason && <span className="muted">{lockReason}</span>}
          </div>
        </>
      ) : (
        <div className="form">
          <label>
            Handoff text (saved as manual context)
            <textarea value={draft} rows={12} onChange={(e) => setDraft(e.target.value)} />
          </label>
          <div className="row">
            <button type="button" className="primary" onClick={save} disabled={action.pending}>
              Save handoff text
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              Cancel edit
            </button>
          </div>
        </div>
      )}
      {action.error && (
        <p className="error" role="alert">
          {action.error}
        </p>
      )}
      <JsonView value={handoff.payload} summary="Structured payload" />
      {view.handoffs.length > 1 && (
        <details>
          <summary>History ({view.handoffs.length} versions)</summary>
          <ol className="compact-list">
            {view.handoffs.map((h) => (
              <li key={h.id}>
                {shortId(h.id)} · {words(h.strategy)} · {h.status} · {shortTime(h.createdAt)}
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
