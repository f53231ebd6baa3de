"use client";
import { useState } from "react";
import type { RouterOutputs } from "@skein/contract";
import { useApi } from "../../lib/api-context.tsx";
import { useDebug } from "../../lib/debug-mode.tsx";
import type { TurnItem } from "../../lib/types.ts";

type RawFramesView = RouterOutputs["events"]["raw"];

/**
 * B8: the raw provider frames an item came from, fetched when the disclosure opens (diagnostics:
 * never loaded with the conversation, and shown only with debug details on). Each frame shows
 * the store sequence it led to, if any.
 */
export function RawFrames({ item }: { item: TurnItem }) {
  const client = useApi();
  const [view, setView] = useState<RawFramesView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { debug } = useDebug();
  const { rawFrames, runId, nodeId, threadId } = item;
  if (!debug || !rawFrames || runId === null || nodeId === null) return null;
  const load = () => {
    if (view !== null) return;
    client.events.raw
      .query({ threadId, runId, nodeId })
      .then(setView)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <details
      className="raw-frames"
      data-testid="raw-frames"
      onToggle={(e) => e.currentTarget.open && load()}
    >
      <summary className="muted">raw</summary>
      {error !== null && <p className="error">{error}</p>}
      {view === null && error === null && <p className="muted">Loading…</p>}
      {view !== null && view.frames.length === 0 && (
        <p className="muted">
          {view.logged ? "The frames have rotated out of the raw log." : "No raw log is kept."}
        </p>
      )}
      {view !== null && view.frames.length > 0 && (
        <ol className="raw-frame-list">
          {view.frames.map((frame) => (
            <li key={frame.rawEventId} data-raw-event-id={frame.rawEventId}>
              <details>
                <summary>
                  <code>{frame.direction === "outgoing" ? "→" : "←"}</code>{" "}
                  <code>{frame.method ?? frame.messageKind}</code>
                  {frame.sequence !== null && <span className="muted"> #{frame.sequence}</span>}
                  {frame.observedAt && (
                    <span className="muted"> {frame.observedAt.slice(11, 23)}</span>
                  )}
                </summary>
                <pre>{JSON.stringify(frame.payload, null, 2)}</pre>
              </details>
            </li>
          ))}
          {view.truncated && <li className="muted">…more frames than shown</li>}
        </ol>
      )}
    </details>
  );
}
