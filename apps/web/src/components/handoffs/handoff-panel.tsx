"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { ordinalRange, PROVIDER_LABEL, shortId, shortTime, words } from "../../lib/format.ts";
import type { ProviderKind, Transfer, TransferView } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { JsonView } from "../common/json-view.tsx";
import {
  defaultPreviewProvider,
  HandoffPreviewStart,
  PreviewProviderSelect,
} from "./handoff-preview-start.tsx";
import { ActionError } from "../common/action-error.tsx";
import { HandoffOverview } from "./handoff-overview.tsx";
import { ScrollPre } from "../common/scroll-box.tsx";

const FINAL_STATUSES = new Set(["consumed", "superseded", "failed"]);

/**
 * The handoff in effect for a transfer: strategy, coverage and the exact text the target got,
 * plus preview / regenerate / edit (`manual_context`) while the transfer has not been consumed.
 */
export function HandoffPanel({
  transfer,
  view,
  threadDefault,
  onChanged,
}: {
  transfer: Transfer;
  view: TransferView;
  threadDefault: ProviderKind;
  onChanged(): void;
}) {
  const client = useApi();
  const action = useAction();
  const [draft, setDraft] = useState<string | null>(null);
  const handoff = view.handoff;
  const [provider, setProvider] = useState<ProviderKind>(
    () => handoff?.payload.targetProvider ?? defaultPreviewProvider(transfer, threadDefault),
  );
  const pending = transfer.status === "pending";

  if (handoff === null && pending) {
    return (
      <HandoffPreviewStart
        transfer={transfer}
        threadDefault={threadDefault}
        onChanged={onChanged}
      />
    );
  }
  if (handoff === null) {
    return (
      <p className="muted">
        No handoff text:{" "}
        {transfer.resolution?.strategy === "native_fork"
          ? "the provider forked natively, so no summary was needed."
          : transfer.status === "superseded"
            ? "there was nothing to carry over."
            : `the transfer is ${words(transfer.status)}.`}
      </p>
    );
  }

  const locked = FINAL_STATUSES.has(transfer.status);
  const lockReason = locked
    ? `The transfer is ${words(transfer.status)}: the target already received this text.`
    : null;
  // No writer named: the project's `handoffWriter` decides (issue 25 item 3).
  const regenerate = (writer?: "skein" | "provider") =>
    void action.run(async () => {
      // While pending, regenerating previews again for the chosen provider.
      await client.handoff.regenerate.mutate({
        transferId: transfer.id,
        ...(pending ? { provider, ...(writer ? { writer } : {}) } : {}),
      });
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
          {handoff.toProviderThreadId
            ? shortId(handoff.toProviderThreadId)
            : "the consuming run's provider thread"}
          {handoff.createdByProvider && (
            <> · built for {PROVIDER_LABEL[handoff.createdByProvider]}</>
          )}
        </dd>
        {handoff.targetRunId === null && (
          <>
            <dt>Preview</dt>
            <dd>
              {handoff.strategy === "manual_context"
                ? "your text; the target's next run sends it as written"
                : `built for ${handoff.payload.targetProvider ? PROVIDER_LABEL[handoff.payload.targetProvider] : "its provider"}; sent if the next run needs this same context there`}
            </dd>
          </>
        )}
      </dl>
      {draft === null ? (
        <>
          <h4>
            {transfer.status === "consumed"
              ? "Exact text the target received"
              : "Text the target will receive"}
          </h4>
          <HandoffOverview payload={handoff.payload} />
          <ScrollPre className="handoff-text" data-testid="handoff-text">
            {handoff.summaryText}
          </ScrollPre>
          <div className="row">
            {pending && (
              <PreviewProviderSelect transfer={transfer} value={provider} onChange={setProvider} />
            )}
            <button
              type="button"
              disabled={locked || action.pending}
              title="Written as the project's settings say (Skein or the source provider)"
              onClick={() => regenerate()}
            >
              Regenerate
            </button>
            {pending && (
              <button
                type="button"
                disabled={action.pending}
                title="Skein's structured handoff, built from the runs"
                onClick={() => regenerate("skein")}
              >
                Build Skein's handoff
              </button>
            )}
            {pending && (
              <button
                type="button"
                disabled={action.pending}
                title="The source provider writes it on a side turn of a fork of its own thread"
                onClick={() => regenerate("provider")}
              >
                Ask the source provider to write it
              </button>
            )}
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
      <ActionError error={action.failure} />
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
