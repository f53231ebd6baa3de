"use client";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import type { ProviderKind } from "../../lib/types.ts";
import { useProviderStatus } from "../../lib/use-provider-status.ts";

/**
 * B15: says, before the person types, that the chosen provider cannot take a message and what to
 * do; the server would refuse the message in the same words.
 */
export function ProviderReadinessNotice({ provider }: { provider: ProviderKind }) {
  const { statuses, checking, checkAgain } = useProviderStatus();
  const status = statuses?.find((s) => s.provider === provider);
  if (!status || status.ready) return null;
  return (
    <div className="hint provider-not-ready" role="status" data-provider={provider}>
      <strong>{PROVIDER_LABEL[provider]} is not ready.</strong> {status.lastError}{" "}
      <button type="button" className="small" onClick={() => void checkAgain()} disabled={checking}>
        Check again
      </button>
    </div>
  );
}
