"use client";
import { usageLimitStands } from "@skein/domain/usage-limit";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import type { ProviderKind, ThreadDetail } from "../../lib/types.ts";
import { useProviderStatus } from "../../lib/use-provider-status.ts";

type Props = {
  thread: ThreadDetail["thread"];
  /** The provider the next message goes to now. */
  provider: ProviderKind;
  onSwitch(provider: ProviderKind): void;
};

/**
 * Issue 32, the `switch` setting: while a usage limit holds the thread, the composer offers the
 * providers that are ready instead. Choosing one is the ordinary provider switch: the message
 * carries a handoff, reviewed first when the person asked for review.
 */
export function UsageLimitSwitch({ thread, provider, onSwitch }: Props) {
  const { statuses } = useProviderStatus();
  const limit = thread.usageLimit;
  if (!limit || !usageLimitStands(limit) || thread.onUsageLimit !== "switch") return null;
  if (provider !== limit.provider) return null;
  const ready = (statuses ?? []).filter((s) => s.ready && s.provider !== limit.provider);
  return (
    <div className="hint usage-limit-switch" role="status">
      {ready.length === 0
        ? `No other provider is ready; the limit of ${PROVIDER_LABEL[limit.provider]} holds this thread.`
        : ready.map((s) => (
            <button
              key={s.provider}
              type="button"
              className="small"
              onClick={() => onSwitch(s.provider)}
            >
              Switch to {PROVIDER_LABEL[s.provider]}
            </button>
          ))}
    </div>
  );
}
