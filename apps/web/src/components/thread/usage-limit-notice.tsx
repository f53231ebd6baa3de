"use client";
import { MAX_AUTOMATIC_RESUMES, usageLimitPlan } from "@skein/domain/usage-limit";
import { useApi } from "../../lib/api-context.tsx";
import { PROVIDER_LABEL } from "../../lib/format.ts";
import type { ThreadDetail } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";

type Props = { detail: ThreadDetail; onChanged(): void };

let clockFormat: Intl.DateTimeFormat | null = null;

/** "14:05": the reset is always within hours, so the time of day says it. */
export function hoursMinutes(iso: string): string {
  clockFormat ??= new Intl.DateTimeFormat([], {
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  });
  return clockFormat.format(new Date(iso));
}

/** Issue 32: what the limited run's header says while the limit stands (null: no limit). */
export function usageLimitNote(
  thread: ThreadDetail["thread"],
): { runId: string; text: string } | null {
  const limit = thread.usageLimit;
  if (!limit || limit.resumedAt !== null) return null;
  const plan = usageLimitPlan(thread);
  const resets = limit.resetsAt ? ` — resets at ${hoursMinutes(limit.resetsAt)}` : "";
  const resumes = plan.kind === "resume" ? `; resumes by itself at ${hoursMinutes(plan.at)}` : "";
  return { runId: limit.runId, text: `Usage limit reached${resets}${resumes}` };
}

/**
 * Issue 32: the run a usage limit failed, while the limit holds the thread: when it resets,
 * whether Skein resumes by itself (with a cancel, which turns the setting to `stop`), and
 * "Retry now" for the person who knows better (their queued messages keep waiting behind it).
 */
export function UsageLimitNotice({ detail, onChanged }: Props) {
  const client = useApi();
  const action = useAction();
  const thread = detail.thread;
  const limit = thread.usageLimit;
  if (!limit || limit.resumedAt !== null || thread.archivedAt || thread.deletedAt) return null;
  const plan = usageLimitPlan(thread);
  const threadId = thread.id;
  const act = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      onChanged();
    });
  const setting = (onUsageLimit: "stop" | "wait") =>
    act(() => client.thread.updateSettings.mutate({ threadId, onUsageLimit }));
  const name = PROVIDER_LABEL[limit.provider];
  return (
    <section className="usage-limit-notice" role="status" aria-label="Usage limit">
      <p>
        <strong>Usage limit reached</strong> ({name})
        {limit.resetsAt
          ? ` — resets at ${hoursMinutes(limit.resetsAt)}.`
          : ` — ${name} did not say when it resets.`}{" "}
        Queued messages wait for it.
      </p>
      {plan.kind === "resume" && (
        <p>
          The run resumes by itself at {hoursMinutes(plan.at)}.{" "}
          <button
            type="button"
            className="small"
            disabled={action.pending}
            onClick={() => setting("stop")}
          >
            Cancel
          </button>
        </p>
      )}
      {plan.kind === "held" && plan.why === "resumed_enough" && (
        <p>
          Skein resumed it {MAX_AUTOMATIC_RESUMES} times in a row and the limit came back each time;
          it does not resume by itself any more.
        </p>
      )}
      {plan.kind === "held" && plan.why !== "resumed_enough" && (
        <p>
          {plan.why === "switch"
            ? "This thread switches instead of waiting: pick another provider below (a handoff carries the context)."
            : "This thread does not resume by itself."}{" "}
          <button
            type="button"
            className="small"
            disabled={action.pending}
            onClick={() => setting("wait")}
          >
            Resume at the reset
          </button>
        </p>
      )}
      <button
        type="button"
        className="small"
        disabled={action.pending}
        onClick={() => act(() => client.thread.retryRun.mutate({ threadId, runId: limit.runId }))}
      >
        Retry now
      </button>
      <ActionError error={action.failure} prefix="Not done." />
    </section>
  );
}
