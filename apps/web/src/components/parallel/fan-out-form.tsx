"use client";
import { type FormEvent, useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import { DEFAULT_PROVIDER, PROVIDERS, type ProviderKind } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { ActionError } from "../common/action-error.tsx";
import { ProviderSelect } from "../common/provider-select.tsx";

const MAX_TARGETS = 8;
/** Two forks to start with (rows can be added): a row per provider would grow with every agent. */
const FIRST_TARGETS = PROVIDERS.slice(0, 2);

/**
 * B9: one task sent to several isolated forks at once, one per row (provider per row), each in
 * its own worktree and branch; the comparison below follows them.
 */
export function FanOutForm({ threadId, onFannedOut }: { threadId: string; onFannedOut(): void }) {
  const client = useApi();
  const action = useAction();
  const [text, setText] = useState("");
  const [targets, setTargets] = useState<ProviderKind[]>([...FIRST_TARGETS]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === "" || targets.length === 0) return;
    void action
      .run(() =>
        client.thread.fanOut.mutate({
          threadId: threadId as never,
          text,
          targets: targets.map((provider) => ({ provider })),
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
        {targets.map((provider, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, not entities
          <li key={index}>
            <ProviderSelect
              label={`Provider of fork ${index + 1}`}
              value={provider}
              onChange={(next) =>
                setTargets(targets.map((p, i) => (i === index ? (next as ProviderKind) : p)))
              }
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
          onClick={() => setTargets([...targets, DEFAULT_PROVIDER])}
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
