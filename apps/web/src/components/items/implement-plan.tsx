"use client";
import { useContext, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import { useShells } from "../../lib/shells-store.tsx";
import { DEFAULT_PROVIDER, type ProviderKind, type TurnItemOf } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ThreadContext } from "../../lib/use-thread-context.tsx";
import { ActionError } from "../common/action-error.tsx";
import { ProviderSelect } from "../common/provider-select.tsx";

/**
 * B5 "implement this plan" on an active proposed plan: a new message runs it in default mode, on
 * the provider chosen here (another provider gets the conversation through a handoff), with the
 * plan as context. Only on the plan's own thread: a fork shows its source's plans read-only.
 */
export function ImplementPlan({ item }: { item: TurnItemOf<"plan"> }) {
  const open = useContext(ThreadContext);
  const client = useApi();
  const { refreshThread } = useShells();
  const action = useAction();
  const [provider, setProvider] = useState<ProviderKind>(item.provider ?? DEFAULT_PROVIDER);
  if (open?.threadId !== item.threadId || item.planStatus !== "active") return null;
  const implement = () =>
    void action.run(async () => {
      await client.thread.sendMessage.mutate({
        threadId: item.threadId,
        text: "Implement the plan.",
        provider,
        interactionMode: "default",
        sourcePlanRef: { threadId: item.threadId, planId: item.planId },
      });
      refreshThread(item.threadId);
    });
  return (
    <div className="plan-actions">
      <ProviderSelect
        label="Implement with"
        value={provider}
        onChange={(next) => next !== "" && setProvider(next)}
      />
      <button type="button" className="primary" onClick={implement} disabled={action.pending}>
        Implement
      </button>
      <span className="muted">on {PROVIDER_LABEL[provider]}</span>
      <ActionError error={action.failure} />
    </div>
  );
}
