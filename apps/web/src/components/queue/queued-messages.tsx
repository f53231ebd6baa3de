"use client";
import { useState } from "react";
import { useApi } from "../../lib/api-context.tsx";
import type { ThreadDetail } from "../../lib/types.ts";
import { useAction } from "../../lib/use-action.ts";
import { moved, type WaitingMessage, waitingMessages } from "../../lib/waiting-messages.ts";
import { ActionError } from "../common/action-error.tsx";

type Props = { detail: ThreadDetail; onChanged(): void };

/**
 * B20: the messages waiting behind the running one, in the order they will start. Each can be
 * edited, moved or withdrawn until it starts; the server refuses (CONFLICT, shown in words) one
 * that started meanwhile.
 */
export function QueuedMessages({ detail, onChanged }: Props) {
  const client = useApi();
  const action = useAction();
  const [editing, setEditing] = useState<{ runId: string; text: string } | null>(null);
  const waiting = waitingMessages(detail);
  if (waiting.length === 0) return null;
  const threadId = detail.thread.id;
  const act = (work: () => Promise<unknown>) =>
    void action.run(async () => {
      await work();
      onChanged();
    });
  const move = (from: number, step: -1 | 1) =>
    act(() => client.thread.reorderQueue.mutate({ threadId, runIds: moved(waiting, from, step) }));
  const save = (message: WaitingMessage, text: string) =>
    act(async () => {
      await client.thread.editQueued.mutate({ threadId, runId: message.runId, text });
      setEditing(null);
    });
  return (
    <section className="queued-messages" aria-label="Queue">
      <h3>Queued ({waiting.length}) — sent in this order</h3>
      <ol>
        {waiting.map((message, i) => (
          <li key={message.runId} aria-label={`Queued #${i + 1}`}>
            {editing?.runId === message.runId ? (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  save(message, editing.text);
                }}
              >
                <textarea
                  aria-label="Queued text"
                  value={editing.text}
                  rows={2}
                  onChange={(event) => setEditing({ ...editing, text: event.target.value })}
                />
                <button
                  type="submit"
                  className="small primary"
                  disabled={editing.text.trim() === "" || action.pending}
                >
                  Save
                </button>{" "}
                <button type="button" className="small" onClick={() => setEditing(null)}>
                  Cancel
                </button>
              </form>
            ) : (
              <>
                <span className="queued-text">{message.text}</span>{" "}
                <button
                  type="button"
                  className="small"
                  disabled={action.pending}
                  onClick={() => setEditing({ runId: message.runId, text: message.text })}
                >
                  Edit
                </button>{" "}
                <button
                  type="button"
                  className="small"
                  aria-label="Move up"
                  disabled={action.pending || i === 0}
                  onClick={() => move(i, -1)}
                >
                  ↑
                </button>{" "}
                <button
                  type="button"
                  className="small"
                  aria-label="Move down"
                  disabled={action.pending || i === waiting.length - 1}
                  onClick={() => move(i, 1)}
                >
                  ↓
                </button>{" "}
                <button
                  type="button"
                  className="small danger"
                  disabled={action.pending}
                  onClick={() =>
                    act(() =>
                      client.thread.withdrawQueued.mutate({ threadId, runId: message.runId }),
                    )
                  }
                >
                  Withdraw
                </button>
              </>
            )}
          </li>
        ))}
      </ol>
      <ActionError error={action.failure} prefix="The queue was not changed." />
    </section>
  );
}
