"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { PROVIDERS, type ProviderKind, type Transfer } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ProviderSelect } from "../common/provider-select.tsx";
import { ActionError } from "../common/action-error.tsx";

/**
 * The provider a preview is built for by default: the transfer's own target when it names one;
 * otherwise the provider the source did not use, because on the same provider a fork is usually
 * native and an unedited preview would not be sent; else the thread's default.
 */
export function defaultPreviewProvider(
  transfer: Transfer,
  threadDefault: ProviderKind,
): ProviderKind {
  if (transfer.targetProvider) return transfer.targetProvider;
  const other = PROVIDERS.find((p) => p !== transfer.sourceProvider);
  return transfer.sourceProvider && other ? other : threadDefault;
}

/** Provider picker for a preview; a transfer that names its target provider allows only that. */
export function PreviewProviderSelect({
  transfer,
  value,
  onChange,
}: {
  transfer: Transfer;
  value: ProviderKind;
  onChange(value: ProviderKind): void;
}) {
  if (transfer.targetProvider) {
    return <span className="muted">for {PROVIDER_LABEL[transfer.targetProvider]}</span>;
  }
  return (
    <ProviderSelect
      label="Preview for provider"
      value={value}
      onChange={(next) => next !== "" && onChange(next)}
    />
  );
}

/**
 * A pending transfer has no handoff until its target's next run builds one; previewing builds
 * it now (issue 8), so the user can read and edit exactly what will be carried over first.
 */
export function HandoffPreviewStart({
  transfer,
  threadDefault,
  onChanged,
}: {
  transfer: Transfer;
  threadDefault: ProviderKind;
  onChanged(): void;
}) {
  const client = useApi();
  const action = useAction();
  const [provider, setProvider] = useState(() => defaultPreviewProvider(transfer, threadDefault));
  const preview = () =>
    void action.run(async () => {
      await client.handoff.regenerate.mutate({ transferId: transfer.id, provider });
      onChanged();
    });
  return (
    <div className="handoff handoff-preview-start">
      <p className="muted">
        No handoff text yet: it is built when the target thread's next run starts. Preview it now to
        read or edit what will be carried over.
      </p>
      <div className="row">
        <PreviewProviderSelect transfer={transfer} value={provider} onChange={setProvider} />
        <button type="button" className="primary" onClick={preview} disabled={action.pending}>
          {action.pending ? "Building preview…" : "Preview handoff"}
        </button>
      </div>
      <ActionError error={action.failure} />
    </div>
  );
}
