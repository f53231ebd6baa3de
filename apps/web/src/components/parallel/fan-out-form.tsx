"use client";
import { type FormEvent, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { DEFAULT_PROVIDER, PROVIDERS, type ProviderKind } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";
import { ModelInput, ProviderSelect } from "../common/provider-select.tsx";
import { EffortSelect } from "../composer/mode-controls.tsx";

const MAX_TARGETS = 8;
/** One row: its provider, and its model and effort (empty: the provider's defaults). */
type Target = { provider: ProviderKind; model: string; effort: string };
const target = (provider: ProviderKind): Target => ({ provider, model: "", effort: "" });
/** Two forks to start with (rows can be added): a row per provider would grow with every agent. */
const FIRST_TARGETS = PROVIDERS.slice(0, 2).map(target);

/**
 * B9: one task sent to several isolated forks at once, one per row (provider, model and effort
 * per row), each in its own worktree and branch; the comparison below follows them.
 */
export function FanOutForm({ threadId, onFannedOut }: { threadId: string; onFannedOut(): void }) {
  const client = useApi();
  const action = useAction();
  const [text, setText] = useState("");
  const [targets, setTargets] = useState<Target[]>(FIRST_TARGETS);
  const change = (index: number, next: Partial<Target>) =>
    setTargets(targets.map((t, i) => (i === index ? { ...t, ...next } : t)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === "" || targets.length === 0) return;
    void action
      .run(() =>
        client.thread.fanOut.mutate({
          threadId: threadId as never,
          text,
          targets: targets.map(({ provider, model, effort }) => ({
            provider,
            ...(model.trim() === "" ? {} : { model: model.trim() }),
            ...(effort === "" ? {} : { effort }),
          })),
          isolated: true,
        }),
      )
      .then((answer) => {
        if (!answer) return;
        setText("");
        onFannedOut();
      });
  };

  return (
    <form className="fan-out-form" onSubmit={submit} aria-labelledby="fan-out-heading">
      <h2 id="fan-out-heading">Fan out</h2>
      <p className="muted">
        Each fork starts from the latest finished run in a worktree of its own, and gets the same
        task.
      </p>
      <label className="field">
        <span>Task for every fork</span>
        <textarea
          aria-label="Task for every fork"
          rows={3}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <ol className="fan-out-targets">
        {targets.map(({ provider, model, effort }, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, not entities
          <li key={index}>
            <ProviderSelect
              label={`Provider of fork ${index + 1}`}
              value={provider}
              // Another provider's model and effort mean nothing here: back to its defaults.
              onChange={(next) => change(index, target(next as ProviderKind))}
            />
            <ModelInput
              id={`fan-out-model-${index}`}
              label={`Model of fork ${index + 1}`}
              provider={provider}
              value={model}
              onChange={(next) => change(index, { model: next })}
            />
            <EffortSelect
              label={`Effort of fork ${index + 1}`}
              provider={provider}
              model={model}
              value={effort}
              onChange={(next) => change(index, { effort: next })}
            />
            <button
              type="button"
              aria-label={`Remove fork ${index + 1}`}
              disabled={targets.length === 1}
              onClick={() => setTargets(targets.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <div className="fan-out-actions">
        <button
          type="button"
          disabled={targets.length >= MAX_TARGETS}
          onClick={() => setTargets([...targets, target(DEFAULT_PROVIDER)])}
        >
          Add a fork
        </button>
        <button
          type="submit"
          className="primary"
          disabled={action.pending || text.trim() === "" || targets.length === 0}
        >
          {action.pending ? "Starting…" : `Fan out to ${targets.length}`}
        </button>
      </div>
      <ActionError error={action.failure} prefix="Fan-out failed." />
    </form>
  );
}
